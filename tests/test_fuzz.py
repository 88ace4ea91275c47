"""Fuzzing every frontend through `Checker.check_bytes`: no exception escapes, no internal
error, bounded time and memory, and `--fix` never breaks a file that parsed.

The inputs are arbitrary bytes spiced with the words that get past the prefilter, and the golden
fixtures and examples mutated (truncated, lines deleted/duplicated/swapped, NUL bytes, invalid
UTF-8, CRLF, very long lines, deep nesting), each fed under every kind of file name.
"""

from __future__ import annotations

import time

from replaylint.api import Checker
from replaylint.config import Config

# -- regressions found by fuzzing ---------------------------------------------------------------


def _timed(name: str, data: bytes):
    start = time.perf_counter()
    result = Checker(Config()).check_bytes(name, data)
    return result, time.perf_counter() - start


def test_unbalanced_braces_in_a_shell_word_take_linear_time() -> None:
    # The brace-expansion test was a regex that took quadratic time: 23 s for `{,` * 20000.
    for word in (b"{" * 60000 + b"x" + b"}" * 60000, b"{," * 60000, b"{a" * 60000 + b".."):
        result, seconds = _timed("run.sh", b"vllm serve m --return-sampling-mask " + word + b"\n")
        assert result.internal_error is None
        assert [f.code for f in result.findings] == ["RPL003"]
        assert seconds < 5, seconds


def test_many_statements_on_one_python_line_take_linear_time() -> None:
    # Each statement's line was searched once per statement (and `from vllm import ... as`
    # scanned to the end of the line from each import): 90 s for 8000 imports on one line.
    data = b"from vllm import LLM\n" + b"from vllm import x; " * 8000 + b"\nLLM('m', return_sampling_mask=True)\n"
    result, seconds = _timed("a.py", data)
    assert result.internal_error is None and [f.code for f in result.findings] == ["RPL003"]
    assert seconds < 10, seconds


def test_a_repeated_shell_condition_is_not_kept_once_per_if() -> None:
    # Each `if` appended its condition again, and joining worlds compared the growing tuples:
    # 20 s for 16000 identical `if`s.
    data = b'if [ -n "$X" ]; then A=1; else A=2; fi\n' * 16000 + b"vllm serve m --return-sampling-mask\n"
    result, seconds = _timed("run.sh", data)
    assert result.internal_error is None and [f.code for f in result.findings] == ["RPL003"]
    assert seconds < 10, seconds


def test_many_dockerfile_stages_take_linear_time() -> None:
    # Each FROM searched every earlier stage for its base: 10 s for 16000 stages.
    data = b"".join(b"FROM vllm/vllm-openai:v0.32.0 AS s%d\nENV A%d=1\n" % (i, i) for i in range(16000))
    result, seconds = _timed("Dockerfile", data + b'FROM s15999\nCMD ["m", "--return-sampling-mask"]\n')
    assert result.internal_error is None and [f.code for f in result.findings] == ["RPL003"]
    assert seconds < 10, seconds


def test_form_feeds_and_unicode_line_separators_do_not_hide_python_launches() -> None:
    # The focus split lines with str.splitlines, which also breaks at \x0c, \x1c, U+2028...:
    # its line numbers no longer matched ast's, and the launch after one was never seen.
    for odd in ("\x0c", "\x1c", "\u2028", "\x85"):
        data = f"# page{odd}break\ndef f():\n    pass\nfrom vllm import LLM\nLLM('m', return_sampling_mask=True)\n"
        result, _ = _timed("a.py", data.encode())
        assert result.internal_error is None
        assert [(f.code, f.span.start_line) for f in result.findings] == [("RPL003", 5)], odd


def test_comment_lines_and_skipped_functions_cost_libcst_one_token() -> None:
    # libcst read every blank and comment line as a node: 8 MiB of comments cost 16 s, 500 MB.
    launch = b"from vllm import LLM\nllm = LLM('m', return_sampling_mask=True)\n"
    for filler in (b"# a comment line\n" * 120_000, b"def f():\n    return 1\n\n" * 80_000, b"x = 1 \\\n\n" + b"# c\n" * 1000):
        result, seconds = _timed("a.py", filler + launch + filler)
        assert result.internal_error is None
        assert [(f.code, f.span.start_line) for f in result.findings] == [("RPL003", filler.count(b"\n") + 2)]
        assert seconds < 10, seconds


def test_shell_values_that_double_become_unknown_instead_of_filling_memory() -> None:
    # `A="$A$A"`, `A+=("${A[@]}")`, `set -- "$@" "$@"` twenty times: a million words, minutes and
    # gigabytes (bash itself would never finish). Past 4096 words the value is unknown.
    for body in (b'A="$A$A"\n', b'A+=("${A[@]}")\n', b'A=("${A[@]}" "${A[@]}")\n', b'set -- "$@" "$@"\n'):
        script = b"A=(--x)\nset -- a\n" + body * 60 + b'vllm serve m --return-sampling-mask "${A[@]}" "$@"\n'
        result, seconds = _timed("run.sh", script)
        assert result.internal_error is None and seconds < 10, (body, seconds)
    result, _ = _timed("run.sh", b'A=--x\n' + b'A="$A $A"\n' * 60 + b"vllm serve m --return-sampling-mask\n")
    assert [f.code for f in result.findings] == ["RPL003"]


def test_an_unterminated_dockerfile_heredoc_is_reported_at_its_line() -> None:
    # The reader reported the last line's text as the line number: a TypeError escaped check_bytes.
    data = b'FROM vllm/vllm-openai:v0.31.0\nCOPY <<EOF /etc/x\nCMD ["m", "--return-sampling-mask"]\n'
    result, _ = _timed("Dockerfile", data)
    assert result.internal_error is None
    assert [(f.code, f.span.start_line) for f in result.findings] == [("RPL900", 2)]


def test_compose_command_strings_long_or_ending_in_a_backslash() -> None:
    # A command ending in a backslash raised IndexError (internal error); splitting sliced the
    # string once per character (10 s for a 1 MB command); `${` without `}` rescanned the rest
    # of the string from each one (4.5 s for 100 KB).
    head = b"services:\n  a:\n    image: vllm/vllm-openai:v0.32.0\n    command: m --return-sampling-mask "
    for tail, seconds_at_most in ((b"\\", 1), (b"x" * 1_000_000, 5), (b'"' + b"y" * 1_000_000 + b'"', 5), (b"${" * 100_000, 5)):
        result, seconds = _timed("compose.yaml", head + tail + b"\n")
        assert result.internal_error is None and seconds < seconds_at_most, (tail[:10], seconds)
        assert [f.code for f in result.findings] == ["RPL003"]


def test_a_huge_bare_expression_is_not_read_by_libcst() -> None:
    # A top-level literal that binds and calls nothing went to libcst whole: 10 s for 256 KB.
    data = b'{"a": 1}, ' * 25_600 + b"\n" + b"from vllm import LLM\nllm = LLM('m', return_sampling_mask=True)\n"
    result, seconds = _timed("a.py", data)
    assert result.internal_error is None and seconds < 5, seconds
    assert [(f.code, f.span.start_line) for f in result.findings] == [("RPL003", 3)]

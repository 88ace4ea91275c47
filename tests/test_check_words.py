"""`check_words.read_plain`, the reader of plain `check` command lines that spares argparse: it
gives what check's argparse parser gives, or leaves the line to that parser."""

from __future__ import annotations

import subprocess
import sys

import pytest
from hypothesis import given, settings, strategies as st

from replaylint.cli.check_options import check_parser
from replaylint.cli.check_words import OPTIONS, read_plain, takes_value

FLAGS = [flag for _, flags, _ in OPTIONS for flag in flags if flag.startswith("-")] + ["--no-fix", "--no-show-fixes"]
VALUES = ["concise", "json", "full", "nope", "3", "x3", "RPL001", "a.sh:RPL001", "", "-", "-1", "--fix", "=", "a b"]
PATHS = ["a.py", "dir/b.sh", "c d.yaml", "-", "-x.py", "--exit-zero", "1", "=x", ""]
WORDS = st.one_of(
    st.sampled_from(FLAGS),
    st.sampled_from(VALUES),
    st.sampled_from(PATHS),
    st.builds(lambda flag, value: f"{flag}={value}", st.sampled_from(FLAGS), st.sampled_from(VALUES)),
    st.sampled_from(["--out", "--no-cach", "-nq", "-ofile", "-o=file", "--", "-h", "--help", "--hook=fix"]),
)


def parsed(words: list[str]) -> dict | None:
    """What check's parser makes of `words`: its namespace, or None for an error or unknown words."""
    try:
        args, unknown = check_parser().parse_known_args(words)
    except SystemExit:
        return None
    return None if unknown else vars(args)


PLAIN = [
    [],
    ["a.py", "b.sh", "--no-cache", "--output-format", "concise"],
    ["--force-exclude", "a.py", "b.sh"],
    ["--force-exclude", "--fix", "--no-fix", "--config", "x.toml", "--config=select = []", "a.py"],
    ["-n", "-q", "--workers", "3", "--output-format=json", "--per-file-ignores", "a.sh:RPL001", "dir"],
    ["--select=", "--exit-zero", "-o", "report.txt", "--color", "never", "."],
]


@pytest.mark.parametrize("words", PLAIN)
def test_plain_command_lines_are_read_as_the_parser_reads_them(words: list[str]) -> None:
    read = read_plain(words)
    assert read is not None and vars(read) == parsed(words)


@pytest.mark.parametrize(
    "words",
    [
        ["a.py", "--no-cache", "b.py"],  # paths on both sides: argparse refuses the second run
        ["--output-format", "nope", "a.py"],
        ["--no-cach", "a.py"],  # an abbreviation
        ["--output-format"],
        ["--workers", "x3"],
        ["--", "-a.py"],
        ["-nq", "a.py"],
        ["--help"],
        ["--fix=yes"],
    ],
)
def test_anything_else_is_left_to_the_parser(words: list[str]) -> None:
    assert read_plain(words) is None


@settings(max_examples=400, deadline=None)
@given(st.lists(WORDS, max_size=8))
def test_whatever_it_reads_the_parser_reads_the_same(words: list[str]) -> None:
    read = read_plain(words)
    if read is not None:
        assert vars(read) == parsed(words)


def test_the_options_taking_a_value_are_the_parsers() -> None:
    parser = check_parser()
    assert takes_value() == {option for action in parser._actions if action.nargs != 0 for option in action.option_strings}


def test_a_plain_check_imports_no_argparse(tmp_path) -> None:
    """The pre-commit case: argparse and its parser cost a run the prefilter settles a sixth of its time."""
    (tmp_path / "plain.sh").write_text("echo hello\n")
    script = (
        "import sys\n"
        "from replaylint.cli import main as cli\n"
        "status = cli.main(['check', '--no-cache', '--output-format', 'concise', 'plain.sh'])\n"
        "print(status, 'argparse' in sys.modules)\n"
    )
    checked = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert checked.stdout.splitlines() == ["All checks passed!", "0 False"], checked.stdout + checked.stderr

"""RPL901 (unused-suppression): what is reported, and what its safe fix leaves behind.

The fix may only edit suppression comments: never code, never a string, never another
linter's codes, never a Dockerfile instruction; it leaves no trailing whitespace.
"""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

from replaylint.cli.main import main

HEAD = 'from vllm import LLM, SamplingParams\nllm = LLM("Qwen/Qwen3-8B", return_sampling_mask=True, logprobs_mode="processed_logprobs")\n'
MASK_ONLY = 'from vllm import LLM\n{comment}LLM("m", return_sampling_mask=True)\n'  # RPL003 is reported on line 3


def run(*args: str) -> tuple[int, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        status = main(["check", "--no-cache", "--isolated", *args])
    return status, out.getvalue()


def fix(path: Path, *args: str) -> str:
    run("--fix", *args, str(path))
    return path.read_text()


def findings(path: Path, *args: str) -> list[dict]:
    return json.loads(run("--output-format", "json", *args, str(path))[1])


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_bytes(text.encode())
    return path


# -- 1. a reason after `--` goes with the comment, whatever its characters ------------------------


def test_noqa_reason_with_a_dot_is_removed_whole(tmp_path: Path) -> None:
    path = write(tmp_path, "a.py", HEAD + "params = SamplingParams(temperature=1.0, top_k=40)  # noqa: RPL101 -- moved to eval.py\n")
    [finding] = findings(path)
    assert finding["code"] == "RPL901" and "# noqa: RPL101 -- moved to eval.py" in finding["message"]
    assert fix(path) == HEAD + "params = SamplingParams(temperature=1.0, top_k=40)\n"


def test_reasons_of_every_form_are_removed_whole(tmp_path: Path) -> None:
    lines = [
        "a = 1  # noqa: RPL101 -- see https://example.com/ops#12 (v2.0)!",
        "b = 2  # noqa:RPL101,RPL102--renamed: x.y",
        "c = 3  # replaylint: ignore[RPL101] -- moved to eval.py; see #12",
        "d = 4  # replaylint: ignore -- all: [1, 2]",
    ]
    path = write(tmp_path, "a.py", HEAD + "".join(line + "\n" for line in lines))
    assert [f["code"] for f in findings(path)] == ["RPL901"] * 4
    assert fix(path) == HEAD + "a = 1\nb = 2\nc = 3\nd = 4\n"


def test_crlf_line_endings_are_kept(tmp_path: Path) -> None:
    text = HEAD.replace("\n", "\r\n") + "x = 1  # replaylint: ignore[RPL101] -- old.py\r\n# noqa: RPL101 -- old.py\r\ny = 2\r\n"
    path = tmp_path / "a.py"
    path.write_bytes(text.encode())
    run("--fix", str(path))
    assert path.read_bytes() == (HEAD.replace("\n", "\r\n") + "x = 1\r\ny = 2\r\n").encode()


# -- 2. only the unused codes go: other linters' codes and the used ones stay ---------------------


def test_noqa_keeps_other_linters_codes(tmp_path: Path) -> None:
    lines = [
        ("a = 1  # noqa: E501, RPL101", "a = 1  # noqa: E501"),
        ("b = 2  # noqa: RPL101, E501 -- long URL", "b = 2  # noqa: E501 -- long URL"),
        ("c = 3  # noqa:RPL101,RPL102,E501", "c = 3  # noqa:E501"),
        ("d = 4  # noqa: RPL101 E501", "d = 4  # noqa: E501"),
        ("e = 5  # noqa: E501, RPL101, F401, RPL102", "e = 5  # noqa: E501, F401"),
        ("f = 6  # noqa: E501, RPL101   ", "f = 6  # noqa: E501"),
    ]
    path = write(tmp_path, "a.py", HEAD + "".join(before + "\n" for before, _ in lines))
    reported = findings(path)
    assert [f["code"] for f in reported] == ["RPL901"] * 7 and all("RPL10" in f["message"] for f in reported)
    assert fix(path) == HEAD + "".join(after + "\n" for _, after in lines)


def test_ignore_keeps_the_codes_that_suppressed_something(tmp_path: Path) -> None:
    path = write(tmp_path, "a.py", MASK_ONLY.format(comment="# replaylint: ignore[RPL001, RPL003] -- set by the trainer\n"))
    [finding] = findings(path)
    assert finding["code"] == "RPL901" and "RPL001" in finding["message"] and finding["location"]["row"] == 2
    assert fix(path) == MASK_ONLY.format(comment="# replaylint: ignore[RPL003] -- set by the trainer\n")


def test_ignore_keeps_used_codes_in_any_position(tmp_path: Path) -> None:
    path = write(tmp_path, "a.py", MASK_ONLY.format(comment="# replaylint: ignore[RPL101, RPL003, sampling-mask-unavailable]\n"))
    assert fix(path) == MASK_ONLY.format(comment="# replaylint: ignore[RPL003]\n")


def test_codes_of_rules_this_run_does_not_check_stay(tmp_path: Path) -> None:
    path = write(tmp_path, "a.py", HEAD + "x = 1  # noqa: RPL001, RPL101\n")
    assert fix(path, "--ignore", "RPL001") == HEAD + "x = 1  # noqa: RPL001\n"


def test_a_comment_whose_codes_are_all_unused_goes_whole(tmp_path: Path) -> None:
    path = write(tmp_path, "a.py", HEAD + "x = 1  # noqa: RPL101, RPL102\n# replaylint: ignore[RPL001, RPL101] -- old\ny = 2\n")
    assert len(findings(path)) == 2
    assert fix(path) == HEAD + "x = 1\ny = 2\n"


def test_blanket_and_foreign_noqa_are_not_replaylints(tmp_path: Path) -> None:
    text = HEAD + "x = 1  # noqa\ny = 2  # NOQA\nz = 3  # noqa: E501\nw = 4  # noqa:\n"
    path = write(tmp_path, "a.py", text)
    assert findings(path) == []
    assert fix(path) == text


# -- 3. Dockerfiles: only comment lines are comments ---------------------------------------------


DOCKERFILE_TRAILING = (
    "FROM vllm/vllm-openai:v0.33.0\n"
    "ENV VLLM_USE_V2_MODEL_RUNNER=1  # replaylint: ignore[RPL004]\n"
    'CMD ["m", "--return-sampling-mask"]  # replaylint: ignore[RPL003]\n'
)


def test_dockerfile_trailing_text_is_not_a_suppression_nor_removed(tmp_path: Path) -> None:
    path = write(tmp_path, "Dockerfile", DOCKERFILE_TRAILING)
    assert [f["code"] for f in findings(path)] == []
    assert fix(path) == DOCKERFILE_TRAILING


def test_dockerfile_trailing_text_does_not_suppress(tmp_path: Path) -> None:
    text = "FROM vllm/vllm-openai:v0.33.0\nRUN vllm serve m --return-sampling-mask  # replaylint: ignore[RPL003]\n"
    path = write(tmp_path, "Dockerfile", text)
    assert [f["code"] for f in findings(path)] == ["RPL003", "RPL301"]


def test_dockerfile_comment_lines_still_suppress_and_are_removed(tmp_path: Path) -> None:
    used = 'FROM vllm/vllm-openai:v0.33.0\n# replaylint: ignore[RPL003] -- logprobs unused\nCMD ["m", "--return-sampling-mask", "--enable-scale-out"]\n'
    assert findings(write(tmp_path, "Dockerfile", used)) == []
    good = 'CMD ["m", "--return-sampling-mask", "--logprobs-mode", "processed_logprobs", "--enable-scale-out"]\n'
    path = write(tmp_path, "Dockerfile", "FROM vllm/vllm-openai:v0.33.0\n  # replaylint: ignore[RPL003] -- old.\n" + good)
    assert [f["code"] for f in findings(path)] == ["RPL901"]
    assert fix(path) == "FROM vllm/vllm-openai:v0.33.0\n" + good


# -- removals: whole lines, no trailing whitespace, comments stay comments ------------------------


def test_removals_leave_no_trailing_whitespace_and_drop_lone_comment_lines(tmp_path: Path) -> None:
    lines = [
        ("a = 1  # noqa: RPL101   ", "a = 1"),
        ("b = 2\t# replaylint: ignore[RPL101]\t", "b = 2"),
        ("if a:\n    # noqa: RPL101\n    c = 3", "if a:\n    c = 3"),
        ("   # replaylint: ignore   ", None),
        ("d = 4  # noqa: RPL101  # type: ignore", "d = 4  # type: ignore"),
        ("e = 5  # noqa: RPL101 moved away", "e = 5  # moved away"),
        ("    # noqa: RPL101  # pylint: disable=x", "# pylint: disable=x"),
        ("f = 6  # TODO  # replaylint: ignore[RPL101] -- old", "f = 6  # TODO"),
    ]
    path = write(tmp_path, "a.py", HEAD + "".join(before + "\n" for before, _ in lines))
    fixed = fix(path)
    assert fixed == HEAD + "".join(after + "\n" for _, after in lines if after is not None)
    assert all(line == line.rstrip() for line in fixed.splitlines())


def test_last_line_without_newline(tmp_path: Path) -> None:
    path = write(tmp_path, "a.py", HEAD + "x = 1\n# noqa: RPL101")
    assert fix(path) == HEAD + "x = 1\n"
    path = write(tmp_path, "b.py", HEAD + "x = 1  # noqa: RPL101 -- gone.py")
    assert fix(path) == HEAD + "x = 1"


def test_suppressions_inside_strings_are_text(tmp_path: Path) -> None:
    text = HEAD + 'print("add # noqa: RPL003 to silence it")\nDOC = """\n# replaylint: ignore[RPL003]\n"""\n'
    path = write(tmp_path, "a.py", text)
    assert findings(path) == []
    assert fix(path) == text
    path = write(tmp_path, "b.py", HEAD + 'print("# noqa: RPL101")  # noqa: RPL101\n')
    assert fix(path) == HEAD + 'print("# noqa: RPL101")\n'


def test_shell_trailing_comment_is_still_removed(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "serve.sh",
        "vllm serve m --return-sampling-mask --logprobs-mode processed_logprobs  # replaylint: ignore[RPL003] -- x.y\n",
    )
    assert fix(path) == "vllm serve m --return-sampling-mask --logprobs-mode processed_logprobs\n"


def test_a_suppression_inside_a_shell_string_is_text(tmp_path: Path) -> None:
    script = (
        "#!/bin/bash\n"
        'echo "skip with # replaylint: ignore[RPL001]"\n'
        "vllm serve m --return-sampling-mask --enable-scale-out  # replaylint: ignore[RPL003]\n"
        "MSG='spans\n"
        "# replaylint: ignore[RPL002]'\n"
    )
    path = write(tmp_path, "serve.sh", script)
    assert findings(path) == []  # the real comment silences RPL003; the strings suppress nothing
    assert fix(path) == script


def test_codes_ignored_for_the_file_are_left_alone(tmp_path: Path) -> None:
    config = tmp_path / "replaylint.toml"
    config.write_text('[per-file-ignores]\n"legacy/*.py" = ["RPL003"]\n')
    (tmp_path / "legacy").mkdir()
    path = write(tmp_path / "legacy", "serve.py", MASK_ONLY.format(comment="# noqa: RPL003\n"))
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        main(["check", "--no-cache", "--config", str(config), "--output-format", "json", str(path)])
    assert json.loads(out.getvalue()) == []  # not reported as unused: RPL003 is not checked in this file


def test_suppressions_are_found_in_any_case_and_beside_non_ascii_text(tmp_path: Path) -> None:
    """A file is scanned for suppressions only when it names noqa or replaylint: the test is
    made on the lowered text, and a non-ASCII text is always scanned (the comment matches the
    way Python's case-insensitive patterns do, dotless i and Kelvin sign included)."""
    line = 'LLM("m", return_sampling_mask=True)'
    plain = write(tmp_path, "plain.py", MASK_ONLY.format(comment=""))
    assert [f["code"] for f in findings(plain)] == ["RPL003"]
    for name, comment in (
        ("upper.py", "# NOQA: RPL003\n"),
        ("mixed.py", "# RePlAyLiNt: IGNORE[RPL003]\n"),
        ("dotless.py", "# replayl\u0131nt: ignore[RPL003]\n"),  # only re.IGNORECASE sees replaylint here
    ):
        path = write(tmp_path, name, MASK_ONLY.format(comment=comment))
        assert findings(path, "--ignore", "RPL901") == [], name
    trailing = write(tmp_path, "trailing.py", f"from vllm import LLM\n{line}  # noqa: RPL003 -- caf\u00e9\n")
    assert findings(trailing, "--ignore", "RPL901") == []

"""`--fix`, `--unsafe-fixes`, `--diff`: what is written, what is kept, what is refused."""

from __future__ import annotations

import contextlib
import io
import os
import shutil
import stat
from pathlib import Path

from hypothesis import HealthCheck, given, settings, strategies as st

from replaylint import frontends
from replaylint.cli.main import main

MISSING_MODE = "from vllm import LLM\nllm = LLM('m', return_sampling_mask=True)\n"
FIXED_MODE = "from vllm import LLM\nllm = LLM('m', return_sampling_mask=True, logprobs_mode='processed_logprobs')\n"
SHELL = "#!/bin/bash\n# caf\xe9: Latin-1 in a comment\nvllm serve m --enable-scale-out \\\n\t--return-sampling-mask\n"


def cli(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(["check", "--no-respect-gitignore", "--no-cache", "--output-format", "concise", *args])
    return status, out.getvalue(), err.getvalue()


def test_fix_writes_and_exits_0_when_nothing_remains(tmp_path) -> None:
    path = tmp_path / "a.py"
    path.write_text(MISSING_MODE)
    status, out, _ = cli("--fix", str(path))
    assert path.read_text() == FIXED_MODE
    assert status == 0 and "1 fixed, 0 remaining" in out


def test_unsafe_fixes_need_the_flag(tmp_path) -> None:
    path = tmp_path / "a.py"
    text = "from vllm import LLM\nLLM('m', return_sampling_mask=True, logprobs_mode='processed_logprobs', logits_processors=['a:B'])\n"
    path.write_text(text)
    status, out, _ = cli("--fix", str(path))
    assert path.read_text() == text and status == 1
    assert "1 hidden fix can be enabled with the `--unsafe-fixes` option" in out
    status, _, _ = cli("--fix", "--unsafe-fixes", str(path))
    assert status == 0 and "logits_processors" not in path.read_text()


def test_a_fix_with_nowhere_to_write_it_is_not_offered(tmp_path) -> None:
    """A command put together from pieces has no word the fix could follow: no `help:` promises what
    `--unsafe-fixes` would not do; a command spelt out gets the fix and applies it."""
    pieces = 'import subprocess\nflags = "--return-sampling-mask --logprobs-mode processed_logprobs"\n'
    pieces += 'subprocess.run("vllm serve m " + flags, shell=True)\n'
    path = tmp_path / "serve.py"
    path.write_text(pieces)
    status, out, _ = cli("--output-format", "full", str(path))
    assert "RPL301" in out and "help:" not in out and "hidden fix" not in out
    assert cli("--unsafe-fixes", "--fix", str(path))[1].count("RPL301") == 1 and path.read_text() == pieces
    path.write_text(
        'import subprocess\nsubprocess.run("vllm serve m --return-sampling-mask --logprobs-mode processed_logprobs", shell=True)\n'
    )
    assert "help: Add --enable-scale-out (unsafe fix)" in cli("--output-format", "full", str(path))[1]
    cli("--unsafe-fixes", "--fix", str(path))
    assert "--enable-scale-out" in path.read_text()


def test_diff_prints_and_writes_nothing(tmp_path) -> None:
    path = tmp_path / "a.py"
    path.write_text(MISSING_MODE)
    status, out, err = cli("--diff", str(path))
    assert status == 1 and path.read_text() == MISSING_MODE
    assert f"--- {path}" in out and "+llm = LLM('m', return_sampling_mask=True, logprobs_mode='processed_logprobs')" in out
    assert "Would fix 1 error." in out
    path.write_text(FIXED_MODE)
    assert cli("--diff", str(path))[0] == 0


def test_crlf_line_endings_and_missing_final_newline_are_kept(tmp_path) -> None:
    path = tmp_path / "a.py"
    path.write_bytes(b"from vllm import LLM\r\nllm = LLM(\r\n    'm',\r\n    return_sampling_mask=True,\r\n)")
    cli("--fix", str(path))
    assert path.read_bytes() == (
        b"from vllm import LLM\r\nllm = LLM(\r\n    'm',\r\n    return_sampling_mask=True,\r\n    logprobs_mode='processed_logprobs',\r\n)"
    )


def test_tabs_and_latin1_comment_in_a_shell_script(tmp_path) -> None:
    path = tmp_path / "serve.sh"
    path.write_bytes(SHELL.encode("latin-1"))
    status, out, _ = cli("--fix", str(path))
    data = path.read_bytes()
    assert b"# caf\xe9: Latin-1 in a comment" in data
    assert b"\t--return-sampling-mask \\\n\t--logprobs-mode processed_logprobs\n" in data
    assert status == 0


def test_mode_and_bom_are_kept(tmp_path) -> None:
    path = tmp_path / "a.py"
    path.write_bytes(b"\xef\xbb\xbf" + MISSING_MODE.encode())
    path.chmod(0o750)
    cli("--fix", str(path))
    assert path.read_bytes() == b"\xef\xbb\xbf" + FIXED_MODE.encode()
    assert stat.S_IMODE(path.stat().st_mode) == 0o750


def test_read_only_files_are_named_and_left_alone(tmp_path) -> None:
    path = tmp_path / "a.py"
    path.write_text(MISSING_MODE)
    path.chmod(0o444)
    status, _, err = cli("--fix", str(path))
    assert path.read_text() == MISSING_MODE and "read-only" in err and status == 1


def test_a_fix_that_breaks_the_file_is_not_written(tmp_path, monkeypatch) -> None:
    path = tmp_path / "a.py"
    path.write_text(MISSING_MODE)
    python = frontends.load("python")
    monkeypatch.setattr(python, "parses", lambda text: text == MISSING_MODE)
    status, _, err = cli("--fix", str(path))
    assert path.read_text() == MISSING_MODE and "would not parse" in err


def test_overlapping_fixes_are_applied_in_passes(tmp_path) -> None:
    path = tmp_path / "a.py"
    path.write_text(
        "import os\nfrom vllm import LLM\nos.environ['VLLM_USE_V2_MODEL_RUNNER'] = '0'\n"
        "LLM('m', enable_return_sampling_mask=True, logprobs_mode='processed-logprobs')\n"
    )
    cli("--fix", str(path))
    assert path.read_text() == "import os\nfrom vllm import LLM\nLLM('m', return_sampling_mask=True, logprobs_mode='processed_logprobs')\n"


FIXTURES = sorted(p for p in (Path(__file__).parent.parent / "fixtures").glob("*/*") if (p / "expected.txt").exists())


def _in(folder: Path, *args: str) -> str:
    cwd = os.getcwd()
    os.chdir(folder)
    try:
        return cli(*args)[1]
    finally:
        os.chdir(cwd)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(case=st.sampled_from(FIXTURES), unsafe=st.booleans(), select=st.sampled_from(["ALL", "RPL0", "RPL003,RPL004", "RPL2"]))
def test_fixing_any_fixture_is_sound(tmp_path_factory, case: Path, unsafe: bool, select: str) -> None:
    """After --fix every changed file parses, a second --fix changes nothing, and no fix is left."""
    work = tmp_path_factory.mktemp("fix") / case.name
    shutil.copytree(case, work, ignore=shutil.ignore_patterns("fixed", "expected.txt"))
    extra = (case / "args.txt").read_text().split() if (case / "args.txt").exists() else []
    flags = ["--select", select, *(["--unsafe-fixes"] if unsafe else []), *extra, "."]
    _in(work, "--fix", *flags)
    snapshot = {p: p.read_bytes() for p in work.rglob("*") if p.is_file()}
    for path, data in snapshot.items():
        original = case / path.relative_to(work)
        kind = frontends.kind_for(str(path), data[:256])
        if kind and original.exists() and original.read_bytes() != data:
            assert frontends.load(kind).parses(data.decode("utf-8", "surrogateescape")), path
    _in(work, "--fix", *flags)
    assert {p: p.read_bytes() for p in work.rglob("*") if p.is_file()} == snapshot
    report = _in(work, *flags)
    assert (
        "[*]" not in report and "hidden fix" not in report.replace("--unsafe-fixes` option)", "") or not unsafe and "[*]" not in report
    ), report


def test_a_new_runner_value_keeps_the_users_quotes(tmp_path) -> None:
    dockerfile = tmp_path / "Dockerfile"
    dockerfile.write_text(
        'FROM vllm/vllm-openai:v0.33.0\nENV VLLM_USE_V2_MODEL_RUNNER="true"\nCMD ["m", "--return-sampling-mask", "--logprobs-mode", "processed_logprobs", "--enable-scale-out"]\n'
    )
    script = tmp_path / "serve.sh"
    script.write_text(
        "export VLLM_USE_V2_MODEL_RUNNER='yes'\nvllm serve m --return-sampling-mask --logprobs-mode processed_logprobs --enable-scale-out\n"
    )
    status, _, _ = cli("--fix", "--target-vllm", "0.33.0", str(dockerfile), str(script))
    assert status == 0
    assert 'ENV VLLM_USE_V2_MODEL_RUNNER="1"\n' in dockerfile.read_text()
    assert script.read_text().startswith("export VLLM_USE_V2_MODEL_RUNNER='1'\n")

"""The command line: exit codes, output formats, selection, `rule`, `--version`."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from replaylint import __version__
from replaylint.cli.main import main
from replaylint.rules import RULES

BAD = "from vllm import LLM\nllm = LLM('m', return_sampling_mask=True, logits_processors=['a:B'])\n"
GOOD = "from vllm import LLM\nllm = LLM('m', return_sampling_mask=True, logprobs_mode='processed_logprobs')\n"


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    (tmp_path / "bad.py").write_text(BAD)
    (tmp_path / "good.py").write_text(GOOD)
    return tmp_path


def run(capsys, *args: str) -> tuple[int, str, str]:
    status = main(list(args))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_findings_exit_1_and_clean_tree_exits_0(tree, capsys) -> None:
    assert run(capsys, "check", str(tree))[0] == 1
    assert run(capsys, "check", str(tree / "good.py"))[0] == 0


def test_concise_lines_and_summary(tree, capsys) -> None:
    status, out, _ = run(capsys, "check", "--output-format", "concise", str(tree / "bad.py"))
    lines = out.splitlines()
    assert lines[0].startswith(f"{tree / 'bad.py'}:2:16: RPL003 [*] ")
    assert lines[1].startswith(f"{tree / 'bad.py'}:2:43: RPL001 ")
    assert "Found 2 errors." in out
    assert "[*] 1 fixable with the `--fix` option (1 hidden fix can be enabled with the `--unsafe-fixes` option)." in out


def test_full_output_shows_the_source_and_the_fix(tree, capsys) -> None:
    _, out, _ = run(capsys, "check", str(tree / "bad.py"))
    assert "2 | llm = LLM('m', return_sampling_mask=True, logits_processors=['a:B'])" in out
    assert "^^^^^^^^^^^^^^^^^^^^^^^^^ RPL003" in out
    assert "= help: Set logprobs_mode to 'processed_logprobs'" in out
    assert "+llm = LLM('m', return_sampling_mask=True, logprobs_mode='processed_logprobs', logits_processors=['a:B'])" in out


def test_json_output_has_ruffs_fields(tree, capsys) -> None:
    status, out, _ = run(capsys, "check", "--output-format", "json", str(tree))
    data = json.loads(out)
    assert status == 1 and len(data) == 2
    first = data[0]
    assert set(first) >= {"code", "message", "filename", "location", "end_location", "fix", "url", "severity", "vllm_version", "name"}
    assert first["location"] == {"row": 2, "column": 16}
    assert first["fix"]["applicability"] == "safe"
    edit = first["fix"]["edits"][0]
    assert edit["content"] == ", logprobs_mode='processed_logprobs'" and edit["location"] == {"row": 2, "column": 41}
    assert first["vllm_version"] == "0.34.0" and first["judged_by_vllm"] == "0.34.0"


def test_json_of_a_clean_tree_is_an_empty_list(tree, capsys) -> None:
    _, out, _ = run(capsys, "check", "--output-format", "json", str(tree / "good.py"))
    assert json.loads(out) == []


def test_select_and_ignore_by_code_prefix_and_name(tree, capsys) -> None:
    _, out, _ = run(capsys, "check", "--output-format", "concise", "--select", "RPL001", str(tree))
    assert "RPL001" in out and "RPL003" not in out
    _, out, _ = run(capsys, "check", "--output-format", "concise", "--ignore", "logits-processors-with-sampling-mask", str(tree))
    assert "RPL003" in out and "RPL001" not in out


def test_target_vllm_changes_the_verdict(tmp_path, capsys) -> None:
    (tmp_path / "spec.py").write_text(
        "from vllm import LLM\nLLM('m', return_sampling_mask=True, logprobs_mode='processed_logprobs',\n"
        "    speculative_config={'method': 'eagle3', 'model': 'e', 'num_speculative_tokens': 2})\n"
    )
    assert run(capsys, "check", "--target-vllm", "0.33", str(tmp_path))[0] == 0
    status, out, _ = run(capsys, "check", "--target-vllm", "0.31.0", "--output-format", "concise", str(tmp_path))
    assert status == 1 and "RPL002" in out and "vLLM 0.31.0 says" in out


@pytest.mark.parametrize(
    "args", [["--target-vllm", "latest"], ["--select", "XYZ1"], ["--ignore", "no-such-rule"], ["--output-format", "xml"]]
)
def test_usage_errors_exit_2_with_one_clear_line(tree, capsys, args) -> None:
    try:
        status = main(["check", *args, str(tree)])
    except SystemExit as exited:
        status = exited.code
    captured = capsys.readouterr()
    assert status == 2
    errors = [line for line in captured.err.splitlines() if "error" in line]
    assert len(errors) == 1 and args[1] in errors[0]


def test_exit_zero(tree, capsys) -> None:
    assert run(capsys, "check", "--exit-zero", str(tree))[0] == 0


def test_rule_documentation(capsys) -> None:
    status, out, _ = run(capsys, "rule", "RPL003")
    assert status == 0 and "# sampling-mask-requires-processed-logprobs (RPL003)" in out and "## Fix safety" in out
    status, out, _ = run(capsys, "rule", "--all", "--output-format", "json")
    assert [entry["code"] for entry in json.loads(out)] == [rule.code for rule in RULES]
    assert run(capsys, "rule", "RPL999")[0] == 2


def test_installed_console_script_and_module(tree) -> None:
    for command in (["replaylint"], [sys.executable, "-m", "replaylint"]):
        executable = Path(sys.executable).parent / "replaylint" if command == ["replaylint"] else None
        argv = [str(executable)] if executable else command
        version = subprocess.run([*argv, "--version"], capture_output=True, text=True, timeout=120)
        assert version.stdout.strip() == f"replaylint {__version__}"
        checked = subprocess.run([*argv, "check", "--output-format", "concise", str(tree)], capture_output=True, text=True, timeout=120)
        assert checked.returncode == 1 and "RPL003" in checked.stdout


def test_exit_leaves_no_worker_holding_the_output(tree) -> None:
    """A worker process still alive at exit (here a pool nobody shut down) inherits stdout: the
    command must kill it, or a caller reading the output to its end waits forever."""
    script = (
        "import concurrent.futures, os, sys\n"
        "from replaylint.cli import main as cli\n"
        "pool = concurrent.futures.ProcessPoolExecutor(1)\n"
        "pool.submit(os.getpid).result()\n"
        f"sys.argv = ['replaylint', 'check', '--output-format', 'concise', {str(tree)!r}]\n"
        "cli.entry()\n"
    )
    checked = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert checked.returncode == 1 and "RPL003" in checked.stdout


def test_help_wraps_at_the_terminal_width(capsys, monkeypatch) -> None:
    def help_lines(columns: str) -> list[str]:
        monkeypatch.setenv("COLUMNS", columns)
        with pytest.raises(SystemExit):
            main(["check", "--help"])
        return capsys.readouterr().out.splitlines()

    narrow, wide = help_lines("60"), help_lines("200")
    assert narrow[0].startswith("usage: replaylint check") and len(narrow) > len(wide)
    assert max(len(line) for line in narrow if "{" not in line) <= 60  # a choices list is not broken


def test_a_warm_run_of_unchanged_files_loads_no_parser_or_digest(tree, tmp_path_factory) -> None:
    """What a warm run (the pre-commit case) must not pay for: parsers, OpenSSL for digests,
    json, and shutil for argparse's terminal width or tempfile (3 to 7 ms each)."""
    (tree / "bad.py").write_text("import os\n")
    (tree / "good.py").write_text("VALUE = 1\n")
    script = (
        "import sys\n"
        "from replaylint.cli import main as cli\n"
        f"sys.argv = ['replaylint', 'check', '--output-format', 'concise', '--cache-dir', {str(tmp_path_factory.mktemp('cache'))!r}, '.']\n"
        "status = cli.main()\n"
        "print(sorted(name for name in ('libcst', 'yaml', 'hashlib', 'json', 'shutil', 'replaylint.model') if name in sys.modules))\n"
    )
    for _ in range(3):  # cold; the run that keeps the stats, a clock step after the files' writing; warm
        time.sleep(0.15)
        checked = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60, cwd=tree)
    assert checked.returncode == 0 and checked.stdout.splitlines()[-1] == "[]", checked.stdout


def test_a_check_of_files_without_launches_imports_no_other_command_and_no_engine(tree) -> None:
    """The pre-commit case: check builds only its own parser, and a run the prefilter settles
    imports neither the other commands (preflight), nor the report's data, the fixer or the engine,
    nor `dataclasses` (with `inspect`, a quarter of the run's CPU time)."""
    (tree / "plain.py").write_text("import os\n")
    (tree / "plain.sh").write_text("echo hello\n")
    unwanted = (
        "replaylint.preflight",
        "replaylint.report.run",
        "replaylint.cli.fix",
        "replaylint.run.recalled_pins",
        "replaylint.engine.checker",
        "dataclasses",
        "replaylint.vllm.releases",
    )
    script = (
        "import sys\n"
        "from replaylint.cli import main as cli\n"
        "status = cli.main(['check', '--no-cache', '--output-format', 'concise', 'plain.py', 'plain.sh'])\n"
        f"print(status, sorted(name for name in {unwanted!r} if name in sys.modules))\n"
    )
    checked = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60, cwd=tree)
    assert checked.stdout.splitlines() == ["All checks passed!", "0 []"], checked.stdout + checked.stderr


def test_checks_own_parser_helps_and_refuses_as_the_whole_command_line(capsys) -> None:
    from replaylint.cli.check_options import check_parser
    from replaylint.cli.main import _parser, _subcommand

    assert check_parser().format_help() == _subcommand(_parser(), "check").format_help()
    with pytest.raises(SystemExit) as exited:
        main(["check", "--no-such-option", "."])  # a word check does not take: the whole parser's error
    error = capsys.readouterr().err
    assert exited.value.code == 2 and error.startswith("usage: replaylint [-h] [--version]")
    assert error.rstrip().endswith("replaylint: error: unrecognized arguments: --no-such-option")


@pytest.mark.parametrize(
    ("pin_file", "before", "after"),
    [
        (
            "pyproject.toml",
            '[project]\nname = "x"\ndependencies = ["vllm==0.33.0"]\n',
            '[project]\nname = "x"\ndependencies = ["vllm==0.34.0"]\n',
        ),
        ("requirements/base.txt", "vllm==0.33.0\n", "vllm==0.34.0\n"),
        ("replaylint.toml", 'target-vllm = "0.33"\n', 'target-vllm = "0.34"\n'),
    ],
)
def test_a_changed_pin_judges_again_the_launches_it_governs(tmp_path: Path, capsys, monkeypatch, pin_file, before, after) -> None:
    """A pre-commit run passes only the changed files: a pin bump alone must still fail on an
    unchanged script that the new release refuses."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "deploy").mkdir()
    (tmp_path / "deploy" / "serve.sh").write_text("VLLM_USE_V2_MODEL_RUNNER=0 vllm serve m\n")
    (tmp_path / pin_file).parent.mkdir(exist_ok=True)
    (tmp_path / pin_file).write_text(before)
    assert run(capsys, "check", "--no-cache", pin_file, "deploy/serve.sh")[0] == 0
    (tmp_path / pin_file).write_text(after)
    status, out, err = run(capsys, "check", "--no-cache", "--output-format", "concise", pin_file)
    assert status == 1 and "deploy/serve.sh:1:1: RPL206" in out
    assert f"{pin_file} decides the launches below" in err

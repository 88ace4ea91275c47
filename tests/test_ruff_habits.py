"""The flags and habits ruff users bring (README "ruff habits"): each means here what it means to
`ruff check`: short options, --fix-only, --no-fix, --ignore-noqa, fixable sets, blanket noqa,
REPLAYLINT_* variables, `replaylint version`, completions, and the fix summaries."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from replaylint.cli.main import main

# RPL003 (a safe fix) and RPL001 (an unsafe one) on one launch.
PYTHON = 'from vllm import LLM\nllm = LLM("m", return_sampling_mask=True, logits_processors=["a:B"])\n'
SHELL = "vllm serve m --return-sampling-mask --enable-scale-out\n"
SHELL_FIXED = "vllm serve m --return-sampling-mask --logprobs-mode processed_logprobs --enable-scale-out\n"


@pytest.fixture
def project(tmp_path: Path, monkeypatch) -> Path:
    (tmp_path / ".git").mkdir()  # no configuration above it counts
    (tmp_path / "a.py").write_text(PYTHON)
    (tmp_path / "b.sh").write_text(SHELL)
    monkeypatch.chdir(tmp_path)
    for name in ("REPLAYLINT_OUTPUT_FORMAT", "REPLAYLINT_OUTPUT_FILE", "REPLAYLINT_NO_CACHE", "REPLAYLINT_CACHE_DIR"):
        monkeypatch.delenv(name, raising=False)
    return tmp_path


def check(capsys, *args: str) -> tuple[int, str, str]:
    status = main(["check", *args])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def codes(out: str) -> list[str]:
    return sorted(finding["code"] for finding in json.loads(out))


# -- short options ---------------------------------------------------------------------------


def test_e_exits_zero_with_findings(project: Path, capsys) -> None:
    status, out, _ = check(capsys, "-n", "-e", "b.sh")
    assert status == 0 and "RPL003" in out
    assert check(capsys, "-n", "b.sh")[0] == 1


def test_n_neither_reads_nor_writes_the_cache(project: Path, capsys) -> None:
    check(capsys, "-n", "b.sh")
    assert not (project / ".replaylint_cache").exists()
    check(capsys, "b.sh")
    assert (project / ".replaylint_cache").exists()


def test_v_says_the_configuration_and_the_files_checked(project: Path, capsys) -> None:
    (project / "replaylint.toml").write_text('select = ["RPL003"]\n')
    status, out, err = check(capsys, "-n", "-v", "b.sh", "a.py")
    assert status == 1 and "RPL003" in out
    assert f"replaylint: debug: configuration: {project / 'replaylint.toml'}" in err
    assert "replaylint: debug: checked: b.sh" in err and "replaylint: debug: checked: a.py" in err and "checked 2 files in" in err
    assert "debug" not in check(capsys, "-n", "b.sh")[2]


def test_w_is_watch() -> None:
    from replaylint.cli.main import _parser

    assert _parser().parse_args(["check", "-w"]).watch is True


# -- fixing ------------------------------------------------------------------------------------


def test_fix_only_fixes_and_neither_reports_nor_fails_on_what_is_left(project: Path, capsys) -> None:
    status, out, _ = check(capsys, "-n", "--fix-only", "a.py", "b.sh")
    assert status == 0
    assert out == "Fixed 2 errors (1 additional fix available with `--unsafe-fixes`).\n"  # RPL001's is unsafe
    assert (project / "b.sh").read_text() == SHELL_FIXED
    assert check(capsys, "-n", "--fix-only", "a.py")[1] == "No errors fixed (1 fix available with `--unsafe-fixes`).\n"
    (project / "b.sh").write_text(SHELL)
    assert check(capsys, "-n", "--fix-only", "--exit-non-zero-on-fix", "b.sh")[0] == 1


def test_no_fix_and_no_unsafe_fixes_undo_the_options_before_them(project: Path, capsys) -> None:
    status, out, _ = check(capsys, "-n", "--fix", "--no-fix", "b.sh")
    assert status == 1 and "RPL003" in out and (project / "b.sh").read_text() == SHELL
    check(capsys, "-n", "--fix", "--unsafe-fixes", "--no-unsafe-fixes", "a.py")
    assert "logits_processors" in (project / "a.py").read_text()  # RPL001's unsafe fix left out
    check(capsys, "-n", "--fix", "--no-unsafe-fixes", "--unsafe-fixes", "a.py")
    assert "logits_processors" not in (project / "a.py").read_text()


@pytest.mark.parametrize(
    ("options", "configuration", "left"),
    [
        (["--unfixable", "RPL003"], "", ["RPL003"]),
        (["--fixable", "RPL001"], "", ["RPL003"]),
        (["--fixable", "RPL001", "--extend-fixable", "RPL003"], "", []),
        ([], 'unfixable = ["RPL003"]\n', ["RPL003"]),
        ([], 'fixable = ["RPL001"]\nextend-fixable = ["RPL003"]\n', []),
        ([], 'extend-fixable = ["RPL003"]\nfixable = ["RPL001"]\n', []),  # the order of keys does not matter
    ],
)
def test_fixable_sets_decide_what_fix_applies(project: Path, capsys, options: list[str], configuration: str, left: list[str]) -> None:
    (project / "replaylint.toml").write_text(configuration)
    check(capsys, "-n", "--fix", "--unsafe-fixes", *options, "a.py")
    assert codes(check(capsys, "-n", "--output-format", "json", "a.py")[1]) == left


def test_an_unknown_code_in_a_fixable_option_is_an_error(project: Path, capsys) -> None:
    status, _, err = check(capsys, "-n", "--unfixable", "RPL999", "a.py")
    assert status == 2 and "RPL999" in err


def test_show_fixes_lists_them_on_stdout_before_the_summary(project: Path, capsys) -> None:
    status, out, err = check(capsys, "-n", "--fix", "--show-fixes", "--output-format", "concise", "a.py", "b.sh")
    assert status == 1 and "Fixed" not in err
    findings, listed, summary = out.split("\n\n")
    assert findings.startswith("a.py:2:") and " RPL001 " in findings and "\n" not in findings
    assert listed.splitlines() == [
        "Fixed 2 errors:",
        "- a.py:",
        "    1 \u00d7 RPL003 (sampling-mask-requires-processed-logprobs)",
        "- b.sh:",
        "    1 \u00d7 RPL003 (sampling-mask-requires-processed-logprobs)",
    ]
    assert summary.startswith("Found 3 errors (2 fixed, 1 remaining).")


def test_diff_says_how_many_unsafe_fixes_are_left(project: Path, capsys) -> None:
    status, out, _ = check(capsys, "-n", "--diff", "a.py")
    assert status == 1 and out.endswith("Would fix 1 error (1 additional fix available with `--unsafe-fixes`).\n")
    assert check(capsys, "-n", "--diff", "--unsafe-fixes", "a.py")[1].endswith("Would fix 2 errors.\n")
    (project / "only_unsafe.py").write_text(
        PYTHON.replace("return_sampling_mask=True", 'return_sampling_mask=True, logprobs_mode="processed_logprobs"')
    )
    status, out, _ = check(capsys, "-n", "--diff", "only_unsafe.py")
    assert status == 0 and out == "No errors would be fixed (1 fix available with `--unsafe-fixes`).\n"


def test_a_fixed_warning_is_counted_as_a_warning(project: Path, capsys) -> None:
    text = 'from vllm import LLM\nLLM("m", return_sampling_mask=True, logprobs_mode="processed_logprobs")  # noqa: RPL001\n'
    (project / "c.py").write_text(text)  # RPL901, a warning with a safe fix
    assert check(capsys, "-n", "c.py")[1].endswith("Found 1 warning.\n[*] 1 fixable with the `--fix` option.\n")
    status, out, _ = check(capsys, "-n", "--fix", "c.py")
    assert status == 0 and out == "Found 1 warning (1 fixed, 0 remaining).\n"
    (project / "c.py").write_text(text)
    assert check(capsys, "-n", "--diff", "c.py")[1].endswith("Would fix 1 warning.\n")


# -- suppressions --------------------------------------------------------------------------------


def test_a_blanket_noqa_suppresses_its_own_line_only(project: Path, capsys) -> None:
    (project / "a.py").write_text(
        "from vllm import LLM\n"
        'one = LLM("m", return_sampling_mask=True, logits_processors=["a:B"])  # noqa\n'
        'two = LLM("m", return_sampling_mask=True)  # NOQA E501 (codes without a colon: blanket, as ruff reads it)\n'
        "# noqa\n"
        'three = LLM("m", return_sampling_mask=True)\n'
        "x = 1  # noqa\n"
    )
    status, out, _ = check(capsys, "-n", "--output-format", "json", "a.py")
    found = [(finding["location"]["row"], finding["code"]) for finding in json.loads(out)]
    assert found == [(5, "RPL003")]  # no RPL901 for the bare noqa comments: they are other linters' too


def test_add_noqa_leaves_a_line_with_a_blanket_noqa_alone(project: Path, capsys) -> None:
    text = 'from vllm import LLM\nllm = LLM("m", return_sampling_mask=True)  # noqa\n'
    (project / "a.py").write_text(text)
    assert check(capsys, "-n", "--add-noqa", "a.py")[0] == 0
    assert (project / "a.py").read_text() == text


def test_ignore_noqa_reports_what_the_comments_suppress(project: Path, capsys) -> None:
    (project / "b.sh").write_text("vllm serve m --return-sampling-mask --enable-scale-out  # replaylint: ignore[RPL003]\n")
    (project / "a.py").write_text(PYTHON.replace('["a:B"])', '["a:B"])  # noqa'))
    assert check(capsys, "-n", "a.py", "b.sh")[0] == 0
    status, out, _ = check(capsys, "-n", "--ignore-noqa", "--output-format", "json", "a.py", "b.sh")
    assert status == 1 and codes(out) == ["RPL001", "RPL003", "RPL003"]  # and no RPL901 for the comments
    assert check(capsys, "a.py", "b.sh")[0] == 0 and check(capsys, "--ignore-noqa", "a.py", "b.sh")[0] == 1  # cached apart


def test_extend_per_file_ignores_adds_to_the_configuration(project: Path, capsys) -> None:
    (project / "replaylint.toml").write_text('[per-file-ignores]\n"*.py" = ["RPL001"]\n[extend-per-file-ignores]\n"*.py" = ["RPL003"]\n')
    assert codes(check(capsys, "-n", "--output-format", "json", ".")[1]) == ["RPL003"]  # b.sh's
    assert check(capsys, "-n", "--extend-per-file-ignores", "*.sh:RPL003", ".")[0] == 0


# -- environment ---------------------------------------------------------------------------------


def test_output_format_from_the_environment_below_the_command_line(project: Path, capsys, monkeypatch) -> None:
    monkeypatch.setenv("REPLAYLINT_OUTPUT_FORMAT", "json")
    assert codes(check(capsys, "-n", "b.sh")[1]) == ["RPL003"]
    assert check(capsys, "-n", "--output-format", "concise", "b.sh")[1].startswith("b.sh:1:14: RPL003")
    monkeypatch.setenv("REPLAYLINT_OUTPUT_FORMAT", "yaml")
    with pytest.raises(SystemExit) as stopped:
        check(capsys, "-n", "b.sh")
    assert stopped.value.code == 2 and "REPLAYLINT_OUTPUT_FORMAT" in capsys.readouterr().err


def test_output_format_from_the_environment_over_the_configuration(project: Path, capsys, monkeypatch) -> None:
    (project / "replaylint.toml").write_text('output-format = "concise"\n')
    monkeypatch.setenv("REPLAYLINT_OUTPUT_FORMAT", "json")
    assert codes(check(capsys, "-n", "b.sh")[1]) == ["RPL003"]


@pytest.mark.parametrize(("value", "cached"), [("1", False), ("true", False), ("yes", False), ("0", True), ("false", True), ("", True)])
def test_no_cache_from_the_environment(project: Path, capsys, monkeypatch, value: str, cached: bool) -> None:
    monkeypatch.setenv("REPLAYLINT_NO_CACHE", value)
    check(capsys, "b.sh")
    assert (project / ".replaylint_cache").exists() is cached


def test_cache_dir_and_output_file_from_the_environment(project: Path, capsys, monkeypatch) -> None:
    monkeypatch.setenv("REPLAYLINT_CACHE_DIR", str(project / "elsewhere"))
    monkeypatch.setenv("REPLAYLINT_OUTPUT_FILE", "report.txt")
    status, out, _ = check(capsys, "b.sh")
    assert status == 1 and out == "" and "RPL003" in (project / "report.txt").read_text()
    assert (project / "elsewhere").is_dir() and not (project / ".replaylint_cache").exists()


# -- other commands ------------------------------------------------------------------------------


def test_version_command(capsys) -> None:
    from replaylint import __version__

    assert main(["version"]) == 0 and capsys.readouterr().out == f"replaylint {__version__}\n"
    assert main(["version", "--output-format", "json"]) == 0 and json.loads(capsys.readouterr().out) == {"version": __version__}


@pytest.mark.parametrize(
    ("shell", "marker"),
    [
        ("tcsh", "complete replaylint"),
        ("fish", "complete -c replaylint"),
        ("powershell", "Register-ArgumentCompleter"),
        ("elvish", "edit:completion"),
    ],
)
def test_completions_for_every_shell_ruff_writes(capsys, shell: str, marker: str) -> None:
    assert main(["generate-shell-completion", shell]) == 0
    script = capsys.readouterr().out
    assert marker in script and "fix-only" in script and "output-format" in script and "sarif" in script


def test_the_elvish_completion_offers_each_options_choices(capsys) -> None:
    main(["generate-shell-completion", "elvish"])
    script = capsys.readouterr().out
    assert "&'check --output-format'=['full' 'concise'" in script and "'--no-fix'" not in script  # hidden as in the help


# -- the quick start -----------------------------------------------------------------------------


def test_ci_runs_the_readmes_test_command_and_the_quick_start_installs_no_test_tools() -> None:
    root = Path(__file__).resolve().parent.parent
    if not (root / ".ci" / "run").exists():
        pytest.skip("an unpacked sdist: it has neither .ci/ nor its own quick start to keep in step")
    readme = (root / "README.md").read_text()
    quick_start = readme.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    first, test_command = [block.split("\n```", 1)[0].strip() for block in quick_start.split("```sh\n")[1:3]]
    assert ".venv/bin/pip install . &&" in first and "[test]" not in first
    assert '".[test]"' in test_command and test_command.endswith(".venv/bin/python -m pytest")
    assert test_command in (root / ".ci" / "run").read_text().splitlines()

"""Configuration files, suppressions, stdin and the small output options (issue: fits where users work)."""

from __future__ import annotations

import contextlib
import io
import json
import os
import sys
from pathlib import Path

import pytest

from replaylint.cli.main import main

BAD = "from vllm import LLM\nLLM('m', return_sampling_mask=True, logits_processors=['a:B'])\n"


def run(folder: Path, *args: str, stdin: bytes | None = None) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    cwd = os.getcwd()
    os.chdir(folder)
    old_stdin = sys.stdin
    if stdin is not None:
        sys.stdin = io.TextIOWrapper(io.BytesIO(stdin))
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = main(list(args))
    except SystemExit as exited:
        status = exited.code
    finally:
        os.chdir(cwd)
        sys.stdin = old_stdin
    return status, out.getvalue(), err.getvalue()


def codes(output: str) -> list[str]:
    return [finding["code"] for finding in json.loads(output)]


@pytest.mark.parametrize(
    "name, table",
    [("pyproject.toml", "[tool.replaylint]\n"), ("replaylint.toml", ""), (".replaylint.toml", "")],
)
def test_configuration_files_are_found_above_the_checked_path(tmp_path: Path, name: str, table: str) -> None:
    (tmp_path / name).write_text(table + 'ignore = ["RPL001"]\n')
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "a.py").write_text(BAD)
    status, out, _ = run(tmp_path / "pkg", "check", "--no-cache", "--output-format", "json", "a.py")
    assert codes(out) == ["RPL003"]


def test_nearest_file_wins_and_isolated_ignores_all(tmp_path: Path) -> None:
    (tmp_path / "replaylint.toml").write_text('ignore = ["RPL003"]\n')
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / ".replaylint.toml").write_text('ignore = ["RPL001"]\n')
    (tmp_path / "sub" / "a.py").write_text(BAD)
    assert codes(run(tmp_path / "sub", "check", "--no-cache", "--output-format", "json", "a.py")[1]) == ["RPL003"]
    assert codes(run(tmp_path / "sub", "check", "--no-cache", "--isolated", "--output-format", "json", "a.py")[1]) == ["RPL003", "RPL001"]
    assert codes(run(tmp_path / "sub", "check", "--no-cache", "--config", "../replaylint.toml", "--output-format", "json", "a.py")[1]) == [
        "RPL001"
    ]


def test_every_documented_key_is_accepted(tmp_path: Path) -> None:
    (tmp_path / "replaylint.toml").write_text(
        'select = ["RPL0"]\nextend-select = ["RPL2"]\nignore = ["replay-request-without-top-k"]\n'
        'per-file-ignores = {"legacy/*.py" = ["RPL003"]}\nexclude = ["build"]\nextend-exclude = ["third_party"]\n'
        'respect-gitignore = false\nforce-exclude = true\ntarget-vllm = "0.31"\nfixable = ["ALL"]\nunfixable = ["RPL002"]\n'
        'output-format = "json"\nseverity = {RPL001 = "warning"}\n'
    )
    (tmp_path / "legacy").mkdir()
    (tmp_path / "legacy" / "a.py").write_text(BAD)
    (tmp_path / "third_party").mkdir()
    (tmp_path / "third_party" / "b.py").write_text(BAD)
    status, out, _ = run(tmp_path, "check", "--no-cache", ".")
    findings = json.loads(out)
    assert [(f["filename"], f["code"], f["severity"]) for f in findings] == [("legacy/a.py", "RPL001", "warning")]
    assert "vLLM 0.31.0" in findings[0]["message"]


@pytest.mark.parametrize(
    "content, needle",
    [
        ('selec = ["RPL001"]\n', "unknown key `selec`"),
        ('select = ["RPL999"]\n', "unknown rule code or name: 'RPL999'"),
        ('target-vllm = "latest"\n', "`target-vllm`"),
        ('severity = {RPL001 = "fatal"}\n', "`severity.RPL001`"),
        ("select = [\n", "not valid TOML"),
    ],
)
def test_configuration_errors_name_the_file_and_key_and_exit_2(tmp_path: Path, content: str, needle: str) -> None:
    (tmp_path / "replaylint.toml").write_text(content)
    (tmp_path / "a.py").write_text(BAD)
    status, out, err = run(tmp_path, "check", "--no-cache", "a.py")
    lines = [line for line in err.splitlines() if line]
    assert status == 2 and len(lines) == 1
    assert "replaylint.toml" in lines[0] and needle in lines[0]


def test_show_settings_prints_the_resolved_configuration(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(
        '[project]\nname = "x"\ndependencies = ["vllm==0.31.2"]\n[tool.replaylint]\nignore = ["RPL001"]\n'
    )
    status, out, _ = run(tmp_path, "show-settings")
    assert status == 0 and "ignore = ['RPL001']" in out and "pyproject.toml" in out
    assert "vllm==0.31.2" in out and "judged at 0.31.2" in out


def test_suppressions_in_every_file_type(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("from vllm import LLM\nLLM('m', return_sampling_mask=True)  # noqa: RPL003\n")
    (tmp_path / "b.py").write_text(
        "from vllm import LLM\n# replaylint: ignore[sampling-mask-requires-processed-logprobs] -- set by the trainer\nLLM('m', return_sampling_mask=True)\n"
    )
    (tmp_path / "c.sh").write_text("vllm serve m --return-sampling-mask --enable-scale-out  # replaylint: ignore[RPL003]\n")
    (tmp_path / "Dockerfile").write_text('FROM vllm/vllm-openai:v0.33.0\n# replaylint: ignore\nCMD ["m", "--return-sampling-mask"]\n')
    (tmp_path / "k8s.yaml").write_text(
        "kind: Pod\nspec:\n  containers:\n  - image: vllm/vllm-openai:v0.33.0\n    args:\n"
        "    # replaylint: ignore[RPL003, RPL301]\n    - --return-sampling-mask\n"
    )
    (tmp_path / "d.py").write_text("# replaylint: noqa\nfrom vllm import LLM\nLLM('m', return_sampling_mask=True)\n")
    status, out, _ = run(tmp_path, "check", "--no-cache", "--no-respect-gitignore", "--output-format", "json", ".")
    assert json.loads(out) == [] and status == 0


def test_unused_suppressions_are_reported_and_fixed(tmp_path: Path) -> None:
    good = "from vllm import LLM\nLLM('m', return_sampling_mask=True, logprobs_mode='processed_logprobs')"
    (tmp_path / "a.py").write_text(good + "  # noqa: RPL003\n")
    status, out, _ = run(tmp_path, "check", "--no-cache", "--output-format", "json", "a.py")
    assert codes(out) == ["RPL901"]
    run(tmp_path, "check", "--no-cache", "--fix", "a.py")
    assert (tmp_path / "a.py").read_text() == good + "\n"


def test_stdin_with_a_file_name_chooses_the_frontend(tmp_path: Path) -> None:
    dockerfile = b'FROM vllm/vllm-openai:v0.30.0\nCMD ["m", "--return-sampling-mask", "--enable-scale-out"]\n'
    status, out, _ = run(
        tmp_path, "check", "--no-cache", "-", "--stdin-filename", "deploy/Dockerfile", "--output-format", "json", stdin=dockerfile
    )
    findings = json.loads(out)
    assert status == 1 and [f["code"] for f in findings] == ["RPL003"] and findings[0]["filename"] == "deploy/Dockerfile"
    assert "vLLM 0.30.0" in findings[0]["message"]
    status, out, err = run(tmp_path, "check", "--no-cache", "-", "--stdin-filename", "Dockerfile", "--fix", stdin=dockerfile)
    assert (
        out
        == 'FROM vllm/vllm-openai:v0.30.0\nCMD ["m", "--return-sampling-mask", "--logprobs-mode", "processed_logprobs", "--enable-scale-out"]\n'
    )
    assert status == 0


def test_output_file_statistics_and_exit_zero(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text(BAD)
    status, out, _ = run(tmp_path, "check", "--no-cache", "-o", "report.json", "--output-format", "json", "a.py")
    assert status == 1 and out == "" and codes((tmp_path / "report.json").read_text()) == ["RPL003", "RPL001"]
    status, out, _ = run(tmp_path, "check", "--no-cache", "--statistics", "--exit-zero", "a.py")
    assert status == 0
    assert out.splitlines() == [
        "    1\tRPL001\t    logits-processors-with-sampling-mask",
        "    1\tRPL003\t[*] sampling-mask-requires-processed-logprobs",
    ]


def test_colour_only_on_a_terminal_and_never_with_no_color(tmp_path: Path, monkeypatch) -> None:
    from replaylint.report.text import use_color

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.delenv("NO_COLOR", raising=False)
    assert use_color(Terminal()) and not use_color(io.StringIO())
    monkeypatch.setenv("NO_COLOR", "1")
    assert not use_color(Terminal())


@pytest.mark.parametrize(("cwd", "target"), [(".", "examples/"), (".", "."), ("examples", "."), ("examples", "python/b.py")])
def test_excludes_are_anchored_at_the_project_root_whatever_path_is_checked(tmp_path: Path, cwd: str, target: str) -> None:
    (tmp_path / "pyproject.toml").write_text('[tool.replaylint]\nextend-exclude = ["examples/python"]\nforce-exclude = true\n')
    (tmp_path / "examples" / "python").mkdir(parents=True)
    (tmp_path / "examples" / "python" / "b.py").write_text(BAD)
    (tmp_path / "examples" / "shell").mkdir()
    (tmp_path / "examples" / "shell" / "a.sh").write_text("vllm serve m --return-sampling-mask\n")
    status, out, _ = run(tmp_path / cwd, "check", "--no-cache", "--output-format", "json", target)
    filenames = {Path(finding["filename"]).name for finding in json.loads(out)}
    assert "b.py" not in filenames
    assert filenames == (set() if target.endswith(".py") else {"a.sh"})


def test_config_objects_behave_as_the_dataclass_they_were() -> None:
    """`Config` is a plain class (a pre-commit run imports no dataclasses): keyword construction,
    defaults, a fresh table per instance, `replaced` as `dataclasses.replace`, equality by value."""
    from replaylint.engine.config import Config, ConfigError, apply_override

    first, second = Config(), Config(root="/project", select=("RPL0",))
    assert (first.select, first.exclude[:1], first.per_file_ignores, second.root, second.select) == (
        ("ALL",),
        ("__pycache__",),
        {},
        "/project",
        ("RPL0",),
    )
    apply_override(first, 'per-file-ignores = { "a.sh" = ["RPL001"] }')
    assert first.per_file_ignores == {"a.sh": ("RPL001",)} and second.per_file_ignores == {} and Config().per_file_ignores == {}
    fixing = second.replaced(fixable=("ALL",), unfixable=())
    assert fixing is not second and fixing == second and fixing.root == "/project"
    assert second.replaced(root="/other") != second and second.root == "/project"
    assert first.ignored_for("a.sh") == frozenset({"RPL001"}) and first == first.replaced()  # the compiled globs do not count
    assert "root='/project'" in repr(second) and "_compiled_ignores" not in repr(second)
    with pytest.raises(TypeError):
        Config(no_such_setting=1)
    with pytest.raises(ConfigError):
        apply_override(Config(), "no-such-key = 1")

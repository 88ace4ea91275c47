"""The options ruff users reach for: --show-files, --add-noqa, --config KEY=VALUE, --color,
--extend-ignore, --per-file-ignores, --exit-non-zero-on-fix, --silent, --watch, completions."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from replaylint.cli.main import _parser, main

PYTHON = 'from vllm import LLM\nllm = LLM("m", return_sampling_mask=True, logits_processors=["a:B"])\n'
SHELL = "vllm serve m \\\n  --return-sampling-mask \\\n  --port 8000 --enable-scale-out\n"
DOCKERFILE = 'FROM vllm/vllm-openai:v0.33.0\nCMD ["m", "--return-sampling-mask", "--enable-scale-out"]\n'
COMPOSE = 'services:\n  vllm:\n    image: vllm/vllm-openai:v0.33.0\n    command: ["m", "--return-sampling-mask", "--enable-scale-out"]\n'


@pytest.fixture
def project(tmp_path: Path, monkeypatch) -> Path:
    files = {"a.py": PYTHON, "b.sh": SHELL, "Dockerfile": DOCKERFILE, "compose.yaml": COMPOSE, "README.md": "vllm serve\n"}
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def run(capsys, *args: str) -> tuple[int, str, str]:
    status = main(["check", "--no-cache", *args])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def codes(out: str) -> list[tuple[str, str]]:
    return sorted((finding["filename"], finding["code"]) for finding in json.loads(out))


def test_show_files_lists_what_a_check_reads_and_nothing_else(project: Path, capsys) -> None:
    status, out, _ = run(capsys, "--show-files", ".")
    assert status == 0 and out.splitlines() == ["Dockerfile", "a.py", "b.sh", "compose.yaml"]


def test_add_noqa_silences_each_finding_in_its_files_syntax_and_is_idempotent(project: Path, capsys) -> None:
    status, _, err = run(capsys, "--add-noqa", ".")
    assert status == 0 and "Added 5 noqa directives." in err
    assert (project / "a.py").read_text() == PYTHON.replace('["a:B"])\n', '["a:B"])  # noqa: RPL003, RPL001\n')
    # a comment after `\` would end the command: it goes on the line above
    assert (project / "b.sh").read_text() == "# replaylint: ignore[RPL003]\n" + SHELL
    # Docker has no trailing comments
    assert (project / "Dockerfile").read_text() == DOCKERFILE.replace("CMD", "# replaylint: ignore[RPL003]\nCMD")
    assert (project / "compose.yaml").read_text() == COMPOSE.replace('out"]\n', 'out"]  # replaylint: ignore[RPL003]\n')
    assert run(capsys, ".")[0] == 0
    before = {path.name: path.read_text() for path in project.iterdir()}
    status, _, err = run(capsys, "--add-noqa", ".")
    assert "Added 0 noqa directives." in err and {path.name: path.read_text() for path in project.iterdir()} == before


def test_config_key_value_overrides_the_configuration_file(project: Path, capsys) -> None:
    (project / "replaylint.toml").write_text('select = ["RPL001"]\n')
    assert codes(run(capsys, "--output-format", "json", ".")[1]) == [("a.py", "RPL001")]
    status, out, _ = run(capsys, "--output-format", "json", "--config", 'select = ["RPL003"]', "--config", 'extend-exclude = ["*.py"]', ".")
    assert codes(out) == [("Dockerfile", "RPL003"), ("b.sh", "RPL003"), ("compose.yaml", "RPL003")]
    status, _, err = run(capsys, "--config", "bogus = 1", ".")
    assert status == 2 and "unknown key `bogus`" in err
    status, _, err = run(capsys, "--config", "not toml = [", ".")
    assert status == 2 and "neither a file nor a TOML `key = value`" in err


def test_extend_ignore_and_per_file_ignores(project: Path, capsys) -> None:
    assert codes(run(capsys, "--output-format", "json", "--extend-ignore", "RPL003", ".")[1]) == [("a.py", "RPL001")]
    out = run(capsys, "--output-format", "json", "--per-file-ignores", "*.py:RPL003,RPL001", "--per-file-ignores", "b.sh:RPL003", ".")[1]
    assert codes(out) == [("Dockerfile", "RPL003"), ("compose.yaml", "RPL003")]
    status, _, err = run(capsys, "--per-file-ignores", "*.py", ".")
    assert status == 2 and "GLOB:CODES" in err


def test_exit_non_zero_on_fix(project: Path, capsys) -> None:
    (project / "only.sh").write_text("vllm serve m --return-sampling-mask --enable-scale-out\n")
    assert run(capsys, "--fix", "--exit-non-zero-on-fix", "only.sh")[0] == 1
    assert run(capsys, "--fix", "--exit-non-zero-on-fix", "only.sh")[0] == 0  # nothing left to fix


def test_silent_prints_nothing_and_the_status_tells(project: Path) -> None:
    completed = subprocess.run([sys.executable, "-m", "replaylint", "check", "--no-cache", "-s", "."], cwd=project, capture_output=True)
    assert (completed.returncode, completed.stdout, completed.stderr) == (1, b"", b"")


@pytest.mark.parametrize(
    ("flag", "environment", "coloured"),
    [
        ("auto", {}, False),
        ("auto", {"FORCE_COLOR": "1"}, True),
        ("auto", {"FORCE_COLOR": "1", "NO_COLOR": "1"}, False),
        ("always", {"NO_COLOR": "1"}, True),
        ("never", {"FORCE_COLOR": "1"}, False),
    ],
)
def test_color(project: Path, flag: str, environment: dict, coloured: bool) -> None:
    env = {key: value for key, value in os.environ.items() if key not in ("NO_COLOR", "FORCE_COLOR")}
    completed = subprocess.run(
        [sys.executable, "-m", "replaylint", "check", "--no-cache", "--color", flag, "b.sh"],
        cwd=project,
        capture_output=True,
        env={**env, **environment},
    )
    assert (b"\x1b[" in completed.stdout) is coloured


def test_watch_checks_again_when_a_file_changes(project: Path, tmp_path_factory) -> None:
    pytest.importorskip("watchfiles")
    log = tmp_path_factory.mktemp("watch") / "stderr.txt"
    with open(log, "w") as stderr:
        process = subprocess.Popen(
            [sys.executable, "-m", "replaylint", "check", "--no-cache", "--watch", "--output-format", "concise", "."],
            cwd=project,
            stdout=subprocess.PIPE,
            stderr=stderr,
            text=True,
        )
        try:
            _wait_for(log, "Watching for file changes.", 1)
            (project / "b.sh").write_text("vllm serve m --return-sampling-mask --logprobs-mode processed_logprobs --enable-scale-out\n")
            _wait_for(log, "Watching for file changes.", 2)
        finally:
            process.terminate()
            out, _ = process.communicate(timeout=10)
    assert "File change detected: b.sh" in log.read_text(), log.read_text()
    assert out.count("b.sh:2:3: RPL003") == 1 and "Found 5 errors." in out and "Found 4 errors." in out, (out, log.read_text())


def _wait_for(log: Path, text: str, count: int, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while log.read_text().count(text) < count:
        assert time.monotonic() < deadline, log.read_text()
        time.sleep(0.1)


@pytest.mark.parametrize("shell", ["bash", "zsh"])
def test_shell_completion_names_the_options(capsys, shell: str) -> None:
    assert main(["generate-shell-completion", shell]) == 0
    script = capsys.readouterr().out
    assert "--add-noqa" in script and "--output-format" in script


def test_every_option_has_help() -> None:
    import argparse

    missing = []
    parsers = [_parser()]
    while parsers:
        parser = parsers.pop()
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                parsers += action.choices.values()
            elif not action.help and not isinstance(action, argparse._HelpAction):
                missing.append((parser.prog, action.dest))
    assert missing == []


def test_quiet_prints_the_findings_and_nothing_else(project: Path) -> None:
    completed = subprocess.run(
        [sys.executable, "-m", "replaylint", "check", "--no-cache", "-q", "--output-format", "concise", "a.py", "b.sh"],
        cwd=project,
        capture_output=True,
        text=True,
    )
    assert completed.returncode == 1 and completed.stderr == ""
    assert [line.split(" ")[0] for line in completed.stdout.splitlines()] == ["a.py:2:16:", "a.py:2:43:", "b.sh:2:3:"]
    clean = subprocess.run(
        [sys.executable, "-m", "replaylint", "check", "--no-cache", "-q", "README.md"], cwd=project, capture_output=True, text=True
    )
    assert (clean.returncode, clean.stdout, clean.stderr) == (0, "", "")


def test_diff_on_stdin_prints_the_diff_and_writes_nothing(project: Path) -> None:
    completed = subprocess.run(
        [sys.executable, "-m", "replaylint", "check", "--diff", "-", "--stdin-filename", "b.sh"],
        cwd=project,
        input=SHELL.encode(),
        capture_output=True,
    )
    assert completed.returncode == 1
    assert completed.stdout.decode().splitlines()[2:] == [
        "@@ -1,3 +1,4 @@",
        " vllm serve m \\",
        "   --return-sampling-mask \\",
        "+  --logprobs-mode processed_logprobs \\",
        "   --port 8000 --enable-scale-out",
        "Would fix 1 error.",
    ]


def test_statistics_go_to_the_output_file(project: Path, capsys) -> None:
    status, out, _ = run(capsys, "--statistics", "--output-format", "json", "-o", "stats.json", ".")
    assert out == "" and {entry["code"]: entry["count"] for entry in json.loads((project / "stats.json").read_text())} == {
        "RPL001": 1,
        "RPL003": 4,
    }


@pytest.mark.parametrize("name", ["a.py~", ".#a.py", "#a.py#", ".a.py.swp", ".a.py.swx", "4913", ".a.py.kate-swp", "a.py___jb_tmp___"])
def test_watch_passes_over_editors_temporary_files(name: str) -> None:
    from replaylint.cli.watch import _relevant

    assert not _relevant(None, os.path.join("project", name))
    assert _relevant(None, os.path.join("project", "a.py")) and _relevant(None, os.path.join("project", "Dockerfile"))

"""Every problem with the run itself is a message and exit 2, never a traceback."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import replaylint

LAUNCH = "vllm serve m --return-sampling-mask --enable-scale-out\n"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "serve.sh").write_text(LAUNCH)
    return tmp_path


def message(completed: subprocess.CompletedProcess) -> str:
    assert b"Traceback" not in completed.stderr, completed.stderr.decode()
    assert completed.returncode == 2, (completed.returncode, completed.stderr)
    return completed.stderr.decode()


def test_a_utf16_pyproject_is_a_message(project: Path) -> None:
    (project / "pyproject.toml").write_bytes('[tool.replaylint]\nselect = ["RPL003"]\n'.encode("utf-16"))
    assert "pyproject.toml: TOML must be UTF-8; this file is UTF-16-LE" in message(replaylint("check", "serve.sh", cwd=project))


def test_a_binary_configuration_is_a_message(project: Path) -> None:
    (project / "cfg.toml").write_bytes(bytes(range(256)) * 4)
    assert "cfg.toml: TOML must be UTF-8" in message(replaylint("check", "--config", "cfg.toml", "serve.sh", cwd=project))


@pytest.mark.parametrize(
    ("target", "expected"),
    [("serve.sh/report.json", "which is not a folder"), (".", "is a directory"), ("/dev/full", "No space left on device")],
)
def test_a_report_that_cannot_be_written_is_a_message(project: Path, target: str, expected: str) -> None:
    assert expected in message(replaylint("check", "--output-format", "json", "-o", target, "serve.sh", cwd=project))


def test_stdout_on_a_full_disk_is_a_message(project: Path) -> None:
    with open("/dev/full", "wb") as full:
        completed = subprocess.run(
            [sys.executable, "-m", "replaylint", "check", "serve.sh"], cwd=project, stdout=full, stderr=subprocess.PIPE
        )
    assert "cannot write the report: No space left on device" in message(completed)


def test_closed_stdin_is_a_message(project: Path) -> None:
    completed = subprocess.run(
        [
            sys.executable,
            "-c",
            "import os, runpy, sys; os.close(0); sys.stdin = None; sys.argv = ['replaylint', 'check', '-']; runpy.run_module('replaylint', run_name='__main__')",
        ],
        cwd=project,
        capture_output=True,
    )
    assert "stdin is closed" in message(completed)


def test_closed_stdout_still_gives_the_exit_status(project: Path) -> None:
    completed = subprocess.run(
        [sys.executable, "-m", "replaylint", "check", "serve.sh"],
        cwd=project,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        pass_fds=(),
        close_fds=True,
        preexec_fn=lambda: os.close(1),
    )
    assert completed.returncode == 1 and b"Traceback" not in completed.stderr


def test_too_many_exclude_patterns_are_refused_with_the_key_named(project: Path) -> None:
    globs = ", ".join(f'"dir{index}/*.tmp"' for index in range(10_001))
    (project / "replaylint.toml").write_text(f"extend-exclude = [{globs}]\n")
    assert "`extend-exclude` has 10001 patterns; at most 10000 are accepted" in message(replaylint("check", ".", cwd=project))

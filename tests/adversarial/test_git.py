"""A repository's `.git/config` names programs; replaylint asks git with every one of them off."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from .conftest import replaylint


def hostile_repository(folder: Path, witness: Path) -> Path:
    """A repository whose configuration runs a command (touching `witness`) from every setting
    git reads on the commands replaylint runs, or that a careless call would trigger."""
    subprocess.run(["git", "init", "-q", str(folder)], check=True)
    (folder / "serve.sh").write_text("vllm serve m --return-sampling-mask --enable-scale-out\n")
    (folder / ".gitattributes").write_text("* filter=pwn diff=pwn\n")
    hooks = folder / "hooks"
    hooks.mkdir()
    for hook in ("post-index-change", "pre-commit", "post-checkout"):
        (hooks / hook).write_text(f"#!/bin/sh\ntouch {witness}-{hook}\n")
        (hooks / hook).chmod(0o755)
    settings = {
        "core.fsmonitor": f"touch {witness}-fsmonitor; false #",
        "core.hooksPath": str(hooks),
        "core.pager": f"touch {witness}-pager; cat",
        "core.sshCommand": f"touch {witness}-ssh",
        "filter.pwn.clean": f"touch {witness}-clean; cat",
        "filter.pwn.smudge": f"touch {witness}-smudge; cat",
        "diff.external": f"touch {witness}-diff",
        "diff.pwn.textconv": f"touch {witness}-textconv; cat",
    }
    for key, value in settings.items():
        subprocess.run(["git", "-C", str(folder), "config", key, value], check=True)
    return folder


@pytest.mark.parametrize("output_format", ["full", "sarif"])  # sarif asks git for the repository root too
def test_git_configuration_runs_nothing(tmp_path: Path, output_format: str) -> None:
    witness = tmp_path / "pwned"
    project = hostile_repository(tmp_path / "project", witness)
    for args in (("check", "."), ("check", "serve.sh"), ("check", "--no-cache", ".")):
        completed = replaylint(*args, "--output-format", output_format, cwd=project)
        assert completed.returncode == 1, completed.stderr
    assert sorted(path.name for path in tmp_path.iterdir() if path.name.startswith("pwned")) == []


def test_the_attack_is_real(tmp_path: Path) -> None:
    """The same repository does run its program for a plain `git ls-files`: the test above
    would pass vacuously without it."""
    witness = tmp_path / "pwned"
    project = hostile_repository(tmp_path / "project", witness)
    subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard"], cwd=project, capture_output=True)
    assert (tmp_path / "pwned-fsmonitor").exists()


def test_ignored_files_are_still_left_out(tmp_path: Path) -> None:
    project = hostile_repository(tmp_path / "project", tmp_path / "pwned")
    (project / ".gitignore").write_text("generated/\n")
    (project / "generated").mkdir()
    (project / "generated" / "serve.sh").write_text("vllm serve m --return-sampling-mask --enable-scale-out\n")
    completed = replaylint("check", "--no-cache", "--output-format", "concise", ".", cwd=project)
    assert b"serve.sh:1:14: RPL003" in completed.stdout and b"generated" not in completed.stdout

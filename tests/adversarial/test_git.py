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


LAUNCH = "vllm serve m --return-sampling-mask\n"
GIT_ENVIRONMENT = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@t"}


def git(folder: Path, *args: str) -> None:
    import os

    subprocess.run(["git", "-C", str(folder), *args], check=True, capture_output=True, env={**os.environ, **GIT_ENVIRONMENT})


def concise(folder: Path, *args: str) -> str:
    completed = replaylint("check", "--no-cache", "--output-format", "concise", *args, cwd=folder)
    assert b"Traceback" not in completed.stderr, completed.stderr.decode()
    return completed.stdout.decode("utf-8", "replace")


@pytest.mark.parametrize("tracked", [True, False])
def test_a_file_whose_name_is_not_utf8_is_checked_in_a_walk(tmp_path: Path, tracked: bool) -> None:
    import os

    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    name = os.fsdecode(b"serve-\xff.sh")
    (tmp_path / name).write_text(LAUNCH)
    if tracked:
        git(tmp_path, "add", "--", name)
    named = concise(tmp_path, name)
    walked = concise(tmp_path, ".")
    assert "RPL003" in named and walked.count("RPL003") == named.count("RPL003") == 1, walked


def test_nested_repositories_and_submodules_are_walked_with_their_own_ignore_rules(tmp_path: Path) -> None:
    outer = tmp_path / "outer"
    subprocess.run(["git", "init", "-q", str(outer)], check=True)
    (outer / "serve.sh").write_text(LAUNCH)
    (outer / ".gitignore").write_text("ignored-clone/\n")
    for clone in ("clone", "ignored-clone"):
        subprocess.run(["git", "init", "-q", str(outer / clone)], check=True)
        (outer / clone / "serve.sh").write_text(LAUNCH)
        (outer / clone / "generated.sh").write_text(LAUNCH)
        (outer / clone / ".gitignore").write_text("generated.sh\n")
    library = tmp_path / "library"
    subprocess.run(["git", "init", "-q", str(library)], check=True)
    (library / "serve.sh").write_text(LAUNCH)
    (library / ".gitignore").write_text("forced.sh\n*-ignored.sh\n")
    (library / "forced.sh").write_text(LAUNCH)
    git(library, "add", ".")
    git(library, "add", "-f", "forced.sh")
    git(library, "commit", "-qm", "library")
    git(outer, "-c", "protocol.file.allow=always", "submodule", "add", "-q", str(library), "vendor/library")
    (outer / "vendor" / "library" / "untracked-ignored.sh").write_text(LAUNCH)
    (outer / "vendor" / "library" / "forced.sh").write_text(LAUNCH)
    found = sorted(line.split(":")[0] for line in concise(outer, ".").splitlines() if "RPL003" in line)
    assert found == ["clone/serve.sh", "serve.sh", "vendor/library/forced.sh", "vendor/library/serve.sh"]
    assert [line.split(":")[0] for line in concise(outer / "vendor", ".").splitlines() if "RPL003" in line] == [
        "library/forced.sh",
        "library/serve.sh",
    ]

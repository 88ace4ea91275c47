"""A repository without an index (a fresh `git init`) tracks nothing: its walk does not start git,
and finds what git would; once a file is added, or a variable points git at another index, git
is asked again."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

import replaylint.workspace.discovery as discovery

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


def git(root: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True)


def found(root: Path) -> list[str]:
    return sorted(os.path.relpath(path, root) for path in discovery.discover([str(root)]))


@pytest.fixture
def fresh(tmp_path: Path) -> Path:
    for name, text in {"serve.sh": "", "out/gen.py": "", ".gitignore": "out/\n"}.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    git(tmp_path, "init", "-q")
    return tmp_path


def started_git(monkeypatch) -> list[str]:
    started: list[str] = []
    popen = subprocess.Popen

    def recorded(args, **options):
        started.append(" ".join(args))
        return popen(args, **options)

    monkeypatch.setattr(subprocess, "Popen", recorded)
    return started


def test_a_fresh_repository_is_walked_without_git(fresh: Path, monkeypatch) -> None:
    started = started_git(monkeypatch)
    assert found(fresh) == ["serve.sh"]
    assert started == []


def test_a_file_added_to_the_index_is_asked_of_git(fresh: Path, monkeypatch) -> None:
    git(fresh, "add", "-f", "out/gen.py")
    started = started_git(monkeypatch)
    assert found(fresh) == ["out/gen.py", "serve.sh"]
    assert any("ls-files" in command for command in started)


@pytest.mark.parametrize("variable", ["GIT_INDEX_FILE", "GIT_DIR"])
def test_a_variable_that_points_git_elsewhere_asks_git(fresh: Path, tmp_path_factory, monkeypatch, variable: str) -> None:
    other = tmp_path_factory.mktemp("other")
    git(other, "init", "-q")
    (other / "out").mkdir()
    (other / "out" / "gen.py").write_text("")
    git(other, "add", "-f", "out/gen.py")
    monkeypatch.setenv(variable, str(other / ".git" / "index") if variable == "GIT_INDEX_FILE" else str(other / ".git"))
    started = started_git(monkeypatch)
    assert found(fresh) == ["out/gen.py", "serve.sh"]  # what the other index tracks, as git says
    assert any("ls-files" in command for command in started)


@pytest.mark.parametrize("head", [b"", b"not a reference\n"])
def test_a_folder_git_would_not_take_for_a_repository_asks_git(fresh: Path, monkeypatch, head: bytes) -> None:
    (fresh / ".git" / "HEAD").write_bytes(head)  # git looks above it instead
    started = started_git(monkeypatch)
    found(fresh)
    assert any("ls-files" in command for command in started)

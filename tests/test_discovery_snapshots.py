"""A warm run reuses the files of folders walked before (discovery.Snapshot); whatever changes
what a walk would find must make it walk again."""

from __future__ import annotations

import contextlib
import io
import os
import shutil
import subprocess
import time
from pathlib import Path

import pytest

from replaylint.cli.main import main
from replaylint.workspace.discovery import discover

needs_git = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


def tree(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def later(path: Path) -> None:
    """Move a path's time forward (file systems with coarse clocks would hide a quick change)."""
    stat = path.stat()
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 2_000_000_000))


def found(root: Path, snapshots: dict | None) -> list[str]:
    cwd = os.getcwd()
    os.chdir(root)
    try:
        return list(discover(["."], snapshots=snapshots))
    finally:
        os.chdir(cwd)


def git(root: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True)


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    tree(tmp_path, {"a.py": "", "deploy/serve.sh": "", "deploy/k8s/d.yaml": "", ".gitignore": "build_out/\n"})
    if shutil.which("git"):
        git(tmp_path, "init", "-q")
    return tmp_path


def assert_warm_matches_cold(root: Path, snapshots: dict) -> None:
    assert found(root, snapshots) == found(root, None)


@needs_git
@pytest.mark.parametrize(
    "change",
    [
        "a new file",
        "a new folder",
        "a removed file",
        "a renamed file",
        "a .gitignore that ignores a file",
        "a .gitignore above the folder",
        "git add -f of an ignored file",
        "info/exclude",
    ],
)
def test_a_change_that_changes_the_files_is_seen(repo: Path, change: str) -> None:
    snapshots: dict = {}
    assert found(repo, snapshots) == ["a.py", "deploy/serve.sh", "deploy/k8s/d.yaml"]
    time.sleep(0.01)
    if change == "a new file":
        tree(repo, {"deploy/new.py": ""})
    elif change == "a new folder":
        tree(repo, {"deploy/k8s/extra/more.yaml": ""})
    elif change == "a removed file":
        (repo / "deploy/k8s/d.yaml").unlink()
    elif change == "a renamed file":
        (repo / "deploy/serve.sh").rename(repo / "deploy/start.sh")
    elif change == "a .gitignore that ignores a file":
        (repo / ".gitignore").write_text("build_out/\n*.sh\n")
        later(repo / ".gitignore")
    elif change == "a .gitignore above the folder":
        cwd = os.getcwd()
        os.chdir(repo / "deploy")
        try:
            warm: dict = {}
            assert list(discover(["."], snapshots=warm)) == ["serve.sh", "k8s/d.yaml"]
            (repo / ".gitignore").write_text("build_out/\n*.yaml\n")
            later(repo / ".gitignore")
            assert list(discover(["."], snapshots=warm)) == list(discover(["."])) == ["serve.sh"]
        finally:
            os.chdir(cwd)
        return
    elif change == "git add -f of an ignored file":
        tree(repo, {"build_out/gen.py": ""})
        warm: dict = {}
        assert "build_out/gen.py" not in found(repo, warm)
        git(repo, "add", "-f", "build_out/gen.py")
        assert "build_out/gen.py" in found(repo, warm)
        return
    elif change == "info/exclude":
        exclude = repo / ".git" / "info" / "exclude"
        exclude.parent.mkdir(parents=True, exist_ok=True)
        exclude.write_text("a.py\n")
        later(exclude)
    assert_warm_matches_cold(repo, snapshots)


@needs_git
def test_an_unchanged_tree_is_not_walked_again(repo: Path, monkeypatch) -> None:
    snapshots: dict = {}
    first = found(repo, snapshots)
    import replaylint.workspace.discovery as discovery

    monkeypatch.setattr(discovery, "_walk", lambda *args: pytest.fail("walked an unchanged tree"))
    monkeypatch.setattr(discovery, "_git_listing", lambda *args: pytest.fail("asked git about an unchanged tree"))
    assert found(repo, snapshots) == first


def test_a_warm_run_sees_a_launch_added_to_a_scanned_tree(repo: Path) -> None:
    def check() -> str:
        out = io.StringIO()
        cwd = os.getcwd()
        os.chdir(repo)
        try:
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
                main(["check", "--output-format", "concise", "."])
        finally:
            os.chdir(cwd)
        return out.getvalue()

    assert "All checks passed" in check()
    assert "All checks passed" in check()  # warm
    tree(repo, {"deploy/k8s/new/replay.sh": "vllm serve m --return-sampling-mask\n"})
    assert "replay.sh:1:14: RPL003" in check()


def test_a_folder_is_printed_as_it_was_given_after_another_spelling_filled_the_cache(repo: Path) -> None:
    # A snapshot kept by `check /abs/repo` gave `check .` its absolute paths (and the reverse).
    tree(repo, {"deploy/replay.sh": "vllm serve m --return-sampling-mask\n"})

    def check(folder: str) -> str:
        out = io.StringIO()
        cwd = os.getcwd()
        os.chdir(repo)
        try:
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
                main(["check", "--output-format", "concise", folder])
        finally:
            os.chdir(cwd)
        return out.getvalue().splitlines()[0]

    absolute = str(repo / "deploy" / "replay.sh")
    assert check(str(repo)).startswith(f"{absolute}:1:14: RPL003")
    assert check(".").startswith("deploy/replay.sh:1:14: RPL003")
    assert check(str(repo)).startswith(f"{absolute}:1:14: RPL003")


def test_a_warm_walk_keeps_which_folders_hold_a_configuration(repo: Path, monkeypatch) -> None:
    """A snapshot keeps which folders hold a configuration file or `.git` (the folders' stamps
    vouch for it), so a warm run's configuration search looks in no folder for them; a
    configuration written into a folder since changes its time, and the walk sees it."""
    from replaylint.engine.config import Config
    from replaylint.engine.hierarchy import ConfigPerFile

    def files_and_search(snapshots: dict) -> tuple[list[str], list[str]]:
        looked: list[str] = []
        real = os.path.isfile
        monkeypatch.setattr(os.path, "isfile", lambda path: looked.append(path) or real(path))
        cwd = os.getcwd()
        os.chdir(repo)
        try:
            settings = ConfigPerFile(Config(root=str(repo)))
            files = settings.files(["."], snapshots, [])
            configured = [settings.for_path(file).source for file in files]
        finally:
            os.chdir(cwd)
            monkeypatch.undo()
        return configured, [path for path in looked if os.sep + "deploy" + os.sep in path]

    snapshots: dict = {}
    cold = files_and_search(snapshots)
    import replaylint.workspace.discovery as discovery

    with monkeypatch.context() as walking:
        walking.setattr(discovery, "_walk", lambda *args: pytest.fail("walked an unchanged tree"))
        warm = files_and_search(snapshots)
    assert warm == cold and warm[1] == []
    time.sleep(0.01)
    tree(repo, {"deploy/replaylint.toml": 'ignore = ["RPL003"]\n'})
    configured, _ = files_and_search(snapshots)
    assert any(source.endswith(os.path.join("deploy", "replaylint.toml")) for source in configured)

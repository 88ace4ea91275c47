"""What a walk of a hostile tree reaches: the configuration search stops at the repository and at
folders other users may write, `--watch` stays inside the tree and does not judge it by the
folders above it."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from .conftest import NOBODY, needs_root, replaylint

LAUNCH = "vllm serve m --return-sampling-mask --enable-scale-out\n"
FIXED = "vllm serve m --return-sampling-mask --logprobs-mode processed_logprobs --enable-scale-out\n"


TURNED_OFF = 'ignore = ["ALL"]\n'


def concise(folder: Path, *args: str) -> subprocess.CompletedProcess:
    completed = replaylint("check", "--output-format", "concise", *args, cwd=folder)
    assert b"Traceback" not in completed.stderr, completed.stderr.decode()
    return completed


def project_below(parent: Path) -> Path:
    project = parent / "project"
    project.mkdir()
    (project / "serve.sh").write_text(LAUNCH)
    return project


@needs_root
@pytest.mark.parametrize("owner, mode", [(NOBODY, 0o755), (0, 0o777), (NOBODY, 0o1777)], ids=["another user's", "world-writable", "sticky"])
def test_a_configuration_above_the_project_that_another_user_could_write_is_not_used(public_tmp: Path, owner: int, mode: int) -> None:
    shared = public_tmp / "shared"
    shared.mkdir()
    project = project_below(shared)
    (shared / "replaylint.toml").write_text(TURNED_OFF)
    os.chown(shared / "replaylint.toml", NOBODY, NOBODY)
    os.chown(shared, owner, owner)
    shared.chmod(mode)
    for args in ((".",), ("serve.sh",), ("--no-cache", str(project))):
        completed = concise(project, *args)
        assert completed.returncode == 1 and b"RPL003" in completed.stdout, completed.stdout
    assert sorted(os.listdir(shared)) == ["project", "replaylint.toml"]  # no cache folder made there


def test_a_configuration_above_the_project_in_a_folder_of_this_user_is_used(public_tmp: Path) -> None:
    project = project_below(public_tmp)
    (public_tmp / "replaylint.toml").write_text(TURNED_OFF)
    assert concise(project, ".").returncode == 0


@needs_root
def test_the_search_stops_at_the_repository_root_and_a_repository_of_another_user_is_the_folder_checked(public_tmp: Path) -> None:
    (public_tmp / "replaylint.toml").write_text(TURNED_OFF)
    repository = public_tmp / "repository"
    repository.mkdir()
    subprocess.run(["git", "init", "-q", str(repository)], check=True)
    project = project_below(repository)
    assert concise(project, ".").returncode == 1  # above the repository: not read
    (repository / "replaylint.toml").write_text(TURNED_OFF)
    assert concise(project, ".").returncode == 0  # the repository's own
    os.chown(repository, NOBODY, NOBODY)
    assert concise(project, ".").returncode == 1  # git would not work there either
    (project / "replaylint.toml").write_text(TURNED_OFF)
    assert concise(project, ".").returncode == 0  # the folder checked is the tree's own
    (project / "replaylint.toml").unlink()
    home = public_tmp / "home"
    home.mkdir()
    (home / ".gitconfig").write_text(f"[safe]\n\tdirectory = {repository}\n")
    completed = replaylint("check", "--output-format", "concise", ".", cwd=project, env={"HOME": str(home), "XDG_CONFIG_HOME": str(home)})
    assert completed.returncode == 0  # safe.directory names it, as actions/checkout does


class Watcher:
    """`replaylint check --watch .` running in `project`, its stderr in a file."""

    def __init__(self, project: Path, log: Path) -> None:
        self.log = log
        self._stderr = open(log, "w")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "replaylint", "check", "--no-cache", "--watch", "--output-format", "concise", "."],
            cwd=project,
            stdout=subprocess.PIPE,
            stderr=self._stderr,
            text=True,
            env={**os.environ, "NO_COLOR": "1"},
        )

    def wait_for(self, text: str, count: int, timeout: float = 20) -> None:
        deadline = time.monotonic() + timeout
        while self.log.read_text().count(text) < count:
            assert time.monotonic() < deadline, self.log.read_text()
            time.sleep(0.1)

    def stop(self) -> str:
        self.process.terminate()
        out, _ = self.process.communicate(timeout=10)
        self._stderr.close()
        return out


@pytest.mark.parametrize("above", ["build", ".hidden", "node_modules"])
def test_watch_checks_again_in_a_project_below_an_excluded_or_hidden_folder(tmp_path: Path, above: str) -> None:
    pytest.importorskip("watchfiles")
    project = tmp_path / above / "project"
    project.mkdir(parents=True)
    (project / "serve.sh").write_text(LAUNCH)
    watcher = Watcher(project, tmp_path / "stderr.txt")
    try:
        watcher.wait_for("Watching for file changes.", 1)
        (project / "serve.sh").write_text(FIXED)
        watcher.wait_for("Watching for file changes.", 2)
    finally:
        out = watcher.stop()
    assert "File change detected: serve.sh" in watcher.log.read_text()
    assert "Found 1 error." in out and out.endswith("All checks passed!\n"), out


def test_watch_does_not_follow_links_out_of_the_tree(tmp_path: Path) -> None:
    pytest.importorskip("watchfiles")
    project, outside = tmp_path / "project", tmp_path / "outside"
    project.mkdir()
    outside.mkdir()
    (project / "serve.sh").write_text(LAUNCH)
    (outside / "far.sh").write_text(LAUNCH)
    (project / "up").symlink_to("..")
    (project / "away").symlink_to(outside)
    (project / "root").symlink_to("/")
    watcher = Watcher(project, tmp_path / "stderr.txt")
    try:
        watcher.wait_for("Watching for file changes.", 1)
        (outside / "far.sh").write_text(FIXED)
        time.sleep(2.5)  # past the debounce a change through a followed link would be reported in
        (project / "serve.sh").write_text(FIXED)
        watcher.wait_for("Watching for file changes.", 2)
    finally:
        watcher.stop()
    changes = [line for line in watcher.log.read_text().splitlines() if "File change detected" in line]
    assert len(changes) == 1 and changes[0].endswith("File change detected: serve.sh"), watcher.log.read_text()


# -- what git ignores: replaylint reads the ignore files itself ----------------------------------

IGNORE_RULES = """\
# a comment
*.log
!keep.log
/top-only.sh
build_out/
docs/**/gen
**/cache/*.sh
a?c.sh
[!x]y.sh
\\#hash.sh
trailing.sh{spaces}
\\!bang.sh
nested/sub/
*.tmp/
re/
!re/back.sh
logs/*
!logs/keep.sh
*.gen.sh
all/**
[[:digit:]]*.sh
""".format(spaces="   ")
NAMES = [
    "x.log",
    "keep.log",
    "d/x.log",
    "d/keep.log",
    "top-only.sh",
    "d/top-only.sh",
    "build_out/a.sh",
    "d/build_out/a.sh",
    "docs/gen/a.sh",
    "docs/a/b/gen/c.sh",
    "docs/gen.sh",
    "cache/a.sh",
    "d/cache/a.sh",
    "d/cache/e/a.sh",
    "abc.sh",
    "ac.sh",
    "ay.sh",
    "xy.sh",
    "#hash.sh",
    "trailing.sh",
    "!bang.sh",
    "nested/sub/a.sh",
    "nested/a.sh",
    "f.tmp/a.sh",
    "f.tmp",
    "re/back.sh",
    "re/other.sh",
    "inner/local.sh",
    "inner/deeper/local.sh",
    "inner/x.log",
    "tracked/forced.sh",
    "ü/é.sh",
    *("logs/a.sh", "logs/keep.sh", "logs/sub/b.sh", "a.gen.sh", "inner/b.gen.sh", "all/x/y.sh", "1x.sh", "d/9.sh", "x1.sh"),
]


def git_repository(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    subprocess.run(["git", "init", "-q", str(folder)], check=True)
    return folder


def git_would_check(folder: Path) -> set[str]:
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"], cwd=folder, capture_output=True, check=True
    ).stdout
    return {os.fsdecode(name) for name in listed.split(b"\0") if name and not os.path.basename(os.fsdecode(name)).startswith(".")}


def discovered(folder: Path, *given: str) -> set[str]:
    from replaylint.workspace.discovery import discover

    cwd = os.getcwd()
    os.chdir(folder)
    try:
        return set(discover(list(given) or ["."], excludes=()))
    finally:
        os.chdir(cwd)


def test_the_files_left_are_those_git_leaves(tmp_path: Path) -> None:
    repository = git_repository(tmp_path / "repository")
    for name in NAMES:
        (repository / name).parent.mkdir(parents=True, exist_ok=True)
        (repository / name).write_text("echo\n") if not name.endswith(".tmp") else None
    (repository / ".gitignore").write_text(IGNORE_RULES)
    (repository / "inner" / ".gitignore").write_text("local.sh\n!x.log\n!*.gen.sh\n")
    (repository / ".git" / "info" / "exclude").write_text("tracked/\n")
    subprocess.run(["git", "add", "-f", "tracked/forced.sh"], cwd=repository, check=True)
    expected = git_would_check(repository)
    assert "tracked/forced.sh" in expected and "x.log" not in expected and "inner/x.log" in expected  # the case is real
    assert discovered(repository) == expected
    inner = {name[len("inner/") :] for name in expected if name.startswith("inner/")}
    assert discovered(repository / "inner") == inner  # the rules above the folder given apply too


# Pieces of random ignore rules and paths: names that repeat across depths, so that anchored
# patterns (`a/b*`, `/c`), deep ones (`**/b`, `a/**/x?`) and plain names meet the same paths.
PARTS = ("a", "b", "ab", "x1", "gen", "c.sh", "b.sh", "x.sh")
GLOBS = ("a", "b*", "*b", "x?", "gen", "*.sh", "c.sh", "[ab]*", "[!a]*", "**")


def random_rule(rng) -> str:
    parts = [rng.choice(GLOBS) for _ in range(rng.choice((1, 1, 2, 3)))]
    rule = "/".join(parts)
    rule = rng.choice(("", "", "/", "**/")) + rule if not rule.startswith("**") else rule
    return rng.choice(("", "", "", "!")) + rule + rng.choice(("", "", "/"))


@pytest.mark.parametrize("seed", range(12))
def test_random_rules_leave_the_files_git_leaves(tmp_path: Path, seed: int) -> None:
    """Each ignore file is matched folder by folder (patterns with a `/` that cannot match in a
    folder are set aside once for it, names remembered): the same files as git, for rules and
    trees drawn at random."""
    import random

    rng = random.Random(seed)
    repository = git_repository(tmp_path / "repository")
    for _ in range(60):
        path = repository.joinpath(*(rng.choice(PARTS[:4]) for _ in range(rng.randint(0, 3))), rng.choice(PARTS[4:]))
        path.parent.mkdir(parents=True, exist_ok=True)
        if not path.is_dir():
            path.write_text("echo\n")
    (repository / ".gitignore").write_text("\n".join(random_rule(rng) for _ in range(6)) + "\n")
    inner = next((folder for folder in sorted(repository.rglob("*")) if folder.is_dir() and ".git" not in folder.parts), None)
    if inner is not None:
        (inner / ".gitignore").write_text("\n".join(random_rule(rng) for _ in range(3)) + "\n")
    assert discovered(repository) == git_would_check(repository), (repository / ".gitignore").read_text()


def test_a_tree_of_a_thousand_nested_repositories_starts_a_bounded_number_of_gits(tmp_path: Path, monkeypatch) -> None:
    import replaylint.workspace.discovery as discovery
    from replaylint.workspace.repositories import MAX_LISTED

    git_repository(tmp_path)
    for index in range(1000):
        (tmp_path / f"r{index}" / ".git").mkdir(parents=True)
        (tmp_path / f"r{index}" / "serve.sh").write_text(LAUNCH)
    started = time.monotonic()
    completed = concise(tmp_path, "--no-cache", ".")
    assert time.monotonic() - started < 20 and completed.stdout.count(b"RPL003") == 1000
    asked: list[str] = []
    listing = discovery._git_listing
    monkeypatch.setattr(discovery, "_git_listing", lambda folder: asked.append(folder) or listing(folder))
    assert len(discovered(tmp_path)) == 1000
    assert len(asked) == MAX_LISTED < 100  # the outer repository and the first nested ones

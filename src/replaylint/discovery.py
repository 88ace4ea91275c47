"""Which files a run looks at: walk directories, skip hidden, ignored and excluded paths."""

from __future__ import annotations

import fnmatch
import os
import re
from typing import Callable, Iterable, Iterator

DEFAULT_EXCLUDES = (
    "__pycache__",
    "__pypackages__",
    "_build",
    "buck-out",
    "build",
    "dist",
    "node_modules",
    "site-packages",
    "venv",
)
_HEAD_BYTES = 256
# Hidden folders are skipped, except those where CI systems keep the scripts that start vLLM.
CI_FOLDERS = frozenset({".github", ".gitlab", ".buildkite", ".circleci", ".ci", ".devcontainer", ".tekton"})


class Excluder:
    """Exclude patterns (gitignore-like globs): a pattern without "/" matches any path component,
    one with "/" matches the path relative to the directory being walked."""

    def __init__(self, patterns: Iterable[str]) -> None:
        names = [p.rstrip("/") for p in patterns if "/" not in p.rstrip("/")]
        paths = [p.strip("/") for p in patterns if "/" in p.rstrip("/")]
        self._name = re.compile("|".join(fnmatch.translate(p) for p in names)) if names else None
        self._path = re.compile("|".join(fnmatch.translate(p) for p in paths)) if paths else None

    @property
    def has_path_patterns(self) -> bool:
        return self._path is not None

    def name(self, name: str) -> bool:
        return self._name is not None and self._name.match(name) is not None

    def path(self, relative: str) -> bool:
        relative = relative.replace(os.sep, "/")
        if self._path is not None and self._path.match(relative):
            return True
        return self._name is not None and any(self._name.match(part) for part in relative.split("/"))


def _git_listing(directory: str) -> Callable[[], set[str] | None]:
    """Files git would not ignore below `directory` (tracked or untracked), or None outside git.
    git starts at once and is waited for by the returned function, so the walk runs meanwhile."""
    import subprocess

    try:
        process = subprocess.Popen(
            ["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z", "--", "."],
            cwd=directory,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
    except OSError:
        return lambda: None

    def listing() -> set[str] | None:
        try:
            output, _ = process.communicate(timeout=30)
        except subprocess.SubprocessError:
            process.kill()
            process.communicate()
            return None
        if process.returncode != 0:
            return None
        names = output.decode("utf-8", "replace").split("\0")
        return {_joined(directory, name) for name in names if name}

    return listing


def _joined(directory: str, relative: str) -> str:
    """`os.path.normpath(os.path.join(directory, relative))` for a normalised `directory` and a
    relative path without `.` or `..` parts (git's and os.walk's): a tree has thousands."""
    if os.sep != "/" or relative.startswith("/"):
        return os.path.normpath(os.path.join(directory, relative))
    return relative if directory == "." else directory + "/" + relative


def _walk(directory: str, excluder: Excluder) -> Iterator[str]:
    """Normalised paths of the files below a normalised `directory`."""
    for root, dirs, files in os.walk(directory):
        base = os.path.normpath(root)  # once per folder (`./docs` below `.`)
        relative_root = os.path.relpath(root, directory)
        prefix = "" if relative_root == "." else relative_root + "/"
        dirs[:] = sorted(
            d
            for d in dirs
            if (not d.startswith(".") or d in CI_FOLDERS)
            and not excluder.name(d)
            and not (excluder.has_path_patterns and excluder.path(prefix + d))
        )
        for name in sorted(files):
            if name.startswith(".") or excluder.name(name) or (excluder.has_path_patterns and excluder.path(prefix + name)):
                continue
            yield _joined(base, name)


def discover(
    paths: Iterable[str],
    excludes: tuple[str, ...] = DEFAULT_EXCLUDES,
    respect_gitignore: bool = True,
    force_exclude: bool = False,
) -> Iterator[str]:
    """Files to check, in a stable order. Explicit files are kept unless `force_exclude`."""
    seen: set[str] = set()
    excluder = Excluder(excludes)
    for given in paths:
        if os.path.isdir(given):
            directory = os.path.normpath(given)
            git_listing = _git_listing(directory) if respect_gitignore else lambda: None
            walked = list(_walk(directory, excluder))
            allowed = git_listing()
            for path in walked:
                if allowed is not None and path not in allowed:
                    continue
                if path not in seen:
                    seen.add(path)
                    yield path
        else:
            normal = os.path.normpath(given)
            if force_exclude and excluder.path(normal):
                continue
            if normal not in seen:
                seen.add(normal)
                yield given


def read_head(path: str) -> bytes:
    try:
        with open(path, "rb") as handle:
            return handle.read(_HEAD_BYTES)
    except OSError:
        return b""

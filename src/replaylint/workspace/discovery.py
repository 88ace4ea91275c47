"""Which files a run looks at: walk directories, skip hidden (but for launch files named so), ignored and excluded paths."""

from __future__ import annotations

import fnmatch
import os
import re
from typing import TYPE_CHECKING, Callable, Iterable, Iterator

from ..files import read_head as read_file_head
from .stamps import Stamp, from_plain as stamps_from_plain, stamp, still_true

if TYPE_CHECKING:  # imported by a walk that honours .gitignore: files named on a command line need neither
    from .repositories import Ignores

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
CONFIG_NAMES = (".replaylint.toml", "replaylint.toml", "pyproject.toml")  # in the order the search prefers them
LISTED_NAMES = (".git", *CONFIG_NAMES)  # what a walk notes of each folder for the configuration search
Found = Callable[[str, list[str]], None]  # told each folder a walk lists, and its files, as it finds them


def __getattr__(name: str) -> object:
    """git's command and environment (`repositories`), imported when first asked for."""
    if name in ("GIT", "git_environment"):
        from . import repositories

        return getattr(repositories, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# Hidden folders are skipped, except those where CI systems keep the scripts that start vLLM.
CI_FOLDERS = frozenset({".github", ".gitlab", ".buildkite", ".circleci", ".ci", ".devcontainer", ".tekton"})
# Hidden files are skipped too, except the launch files a tool reads by that name: dstack's default
# run configuration (`dstack apply` without `-f`: `.dstack.yml`, else `.dstack.yaml`) and GitLab's
# pipeline.
HIDDEN_LAUNCH_FILES = frozenset({".dstack.yml", ".dstack.yaml", ".gitlab-ci.yml", ".mise.toml", ".mise.local.toml"})


class Excluder:
    """Exclude patterns (gitignore-like globs): a pattern without "/" matches any path component,
    one with "/" matches the path relative to the project root (the configuration's folder), as
    ruff anchors them, whatever folder is checked; below a folder outside the root, relative to
    that folder."""

    def __init__(self, patterns: Iterable[str], root: str | None = None) -> None:
        self.key = tuple(patterns)
        self.root = os.path.abspath(root) if root is not None else None
        names = [p.rstrip("/") for p in self.key if "/" not in p.rstrip("/")]
        paths = [p.strip("/") for p in self.key if "/" in p.rstrip("/")]
        self._name = re.compile("|".join(fnmatch.translate(p) for p in names)) if names else None
        self._path = re.compile("|".join(fnmatch.translate(p) for p in paths)) if paths else None

    @property
    def has_path_patterns(self) -> bool:
        return self._path is not None

    def name(self, name: str) -> bool:
        return self._name is not None and self._name.match(name) is not None

    def anchor(self, directory: str) -> str:
        """What path patterns see before the paths below `directory`: its path from the root
        ("" at the root, or for a folder outside it), with a trailing "/"."""
        if self.root is None:
            return ""
        relative = os.path.relpath(os.path.abspath(directory), self.root)
        if relative == "." or relative == os.pardir or relative.startswith(os.pardir + os.sep):
            return ""
        return relative.replace(os.sep, "/") + "/"

    def path(self, relative: str) -> bool:
        """Whether the path, or a folder on it, is excluded."""
        parts = relative.replace(os.sep, "/").split("/")
        if self._path is not None and any(self._path.match("/".join(parts[:end])) for end in range(1, len(parts) + 1)):
            return True
        return self._name is not None and any(self._name.match(part) for part in parts)


def _git_listing(directory: str) -> Callable[[], set[str] | None]:
    """The files git tracks below `directory` (its index: `git add -f` keeps an ignored file in
    the check), or None outside git. git starts at once and is waited for by the returned
    function, so the walk runs meanwhile. Names are bytes to git: a name that is not UTF-8 comes
    back as os.walk spells it (surrogate escapes)."""
    if _without_index(directory):
        return set  # (an empty one)
    import subprocess

    from .repositories import GIT, git_environment

    try:
        process = subprocess.Popen(
            [*GIT, "ls-files", "--cached", "-z", "--", "."],
            cwd=directory,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env=git_environment(),
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
        return {_joined(directory, os.fsdecode(name)) for name in output.split(b"\0") if name}

    return listing


_GIT_ELSEWHERE = ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_COMMON_DIR", "GIT_OBJECT_DIRECTORY")
_HEAD_REF = re.compile(rb"(?:ref:\s*refs/.*|[0-9a-f]{40}|[0-9a-f]{64})\s*", re.DOTALL)


def _without_index(directory: str) -> bool:
    """Whether git's answer is known without starting it: `directory` holds a repository folder
    (`.git` with its HEAD, `objects` and `refs`, as git checks before it takes a folder for one)
    that has no index, and no variable points git at another repository or index. git tracks nothing
    there (a fresh `git init`: the benchmark's trees); starting it costs a cold check 8 ms."""
    if any(name in os.environ for name in _GIT_ELSEWHERE):
        return False
    dot_git = os.path.join(directory, ".git")
    if os.path.lexists(os.path.join(dot_git, "index")) or not all(
        os.path.isdir(os.path.join(dot_git, name)) for name in ("objects", "refs")
    ):
        return False
    return _HEAD_REF.fullmatch(read_file_head(os.path.join(dot_git, "HEAD"), _HEAD_BYTES)) is not None  # (b"" for a FIFO, a link)


def _joined(directory: str, relative: str) -> str:
    """`os.path.normpath(os.path.join(directory, relative))` for a normalised `directory` and a
    relative path without `.` or `..` parts (git's and os.walk's): a tree has thousands."""
    if os.sep != "/" or relative.startswith("/"):
        return os.path.normpath(os.path.join(directory, relative))
    if directory == ".":
        return relative
    return directory + relative if directory.endswith("/") else directory + "/" + relative  # `/` is normalised too


def _walk(
    directory: str,
    excluder: Excluder,
    stamps: dict[str, Stamp] | None = None,
    unreadable: list | None = None,
    ignores: Ignores | None = None,
    listed: dict[str, tuple[str, ...]] | None = None,
    found: Found | None = None,
) -> Iterator[str]:
    """Normalised paths of the files below a normalised `directory`; with `stamps`, the stamp of
    every folder walked and every `.gitignore` in them (`Snapshot`); folders that cannot be
    listed go to `unreadable` as (path, reason); with `ignores`, what git ignores is told it;
    with `listed`, which of `LISTED_NAMES` each folder holds (the configuration search's stats);
    `found` is told each folder, with its files that git does not ignore (those it may, once git
    has answered, are not told)."""
    top = len(directory) + (0 if directory.endswith(os.sep) else 1)
    has_paths = excluder.has_path_patterns
    anchor = excluder.anchor(directory) if has_paths else ""
    excluded_name = excluder.name

    def failed(error: OSError) -> None:
        if unreadable is not None:
            unreadable.append((error.filename, f"folder cannot be listed ({(error.strerror or str(error)).lower()})"))

    for root, dirs, files in os.walk(directory, onerror=failed):
        relative_root = root[top:] if root != directory else "."  # os.walk joins `directory` and names
        base = directory if relative_root == "." else _joined(directory, relative_root)  # `./docs` below `.`: `docs`
        if stamps is not None:
            stamps[base] = stamp(base)
            if ".gitignore" in files:
                ignore = _joined(base, ".gitignore")
                stamps[ignore] = stamp(ignore)
        level = ignores.enter(base, ".git" in dirs or ".git" in files, ".gitignore" in files) if ignores is not None else None
        if listed is not None:
            listed[base] = tuple(name for name in LISTED_NAMES if name in files or name in dirs)
        prefix = anchor if relative_root == "." else anchor + relative_root.replace(os.sep, "/") + "/"
        dirs[:] = sorted(
            d
            for d in dirs
            if (not d.startswith(".") or d in CI_FOLDERS) and not excluded_name(d) and not (has_paths and excluder.path(prefix + d))
        )
        if level is not None:
            for d in dirs:
                level.descend(_joined(base, d), d)
        names = [
            name
            for name in sorted(files)
            if not (
                (name.startswith(".") and name not in HIDDEN_LAUNCH_FILES)
                or excluded_name(name)
                or (has_paths and excluder.path(prefix + name))
            )
        ]
        if os.sep != "/" or base == ".":
            paths = [_joined(base, name) for name in names]
        else:  # `_joined` of each name, its folder's part made once
            head = base if base.endswith("/") else base + "/"
            paths = [head + name for name in names]
        if level is not None:
            level.files(paths, names)
        if found is not None:
            decided = ignores.decided if ignores is not None else None
            found(base, [path for path in paths if path not in decided] if decided else paths)
        yield from paths


# -- snapshots: a warm run does not walk a tree whose folders have not changed -------------------


class Snapshot:
    """The files a walk found below a folder, and the stamps that would change with them: every
    folder walked (a file added, removed or renamed changes its folder's time), every
    `.gitignore`, and of each repository its index, `info/exclude`, configuration and excludes
    file (`gitignore.Ignores.sources`). (A plain class: a NamedTuple costs every run 0.3 ms.)"""

    def __init__(self, files: list[str], stamps: dict[str, Stamp], listed: dict[str, list[str]]) -> None:
        self.files = files
        self.stamps = stamps
        self.listed = listed  # each folder walked: which of LISTED_NAMES it holds (`_walk`)

    def still_true(self) -> bool:
        return still_true(self.stamps)

    def plain(self, folder: str) -> dict:
        """The snapshot as JSON values, for the result cache: the files below the walked `folder`
        without its path when they all start with it (a third of the store's bytes on vLLM)."""
        below = "" if folder == "." else folder if folder.endswith("/") else folder + "/"
        if not all(path.startswith(below) for path in self.files):
            below = ""
        files = [path[len(below) :] for path in self.files] if below else self.files
        return {"below": below, "files": files, "stamps": self.stamps, "listed": self.listed}

    @classmethod
    def from_plain(cls, value: object) -> Snapshot | None:
        """A snapshot `plain` made, or None for any other value."""
        if type(value) is not dict or value.keys() != {"below", "files", "stamps", "listed"}:
            return None
        below, files, stamps, listed = value["below"], value["files"], stamps_from_plain(value["stamps"]), value["listed"]
        if type(below) is not str or type(files) is not list or not set(map(type, files)) <= {str}:
            return None
        if stamps is None or not _names_by_folder(listed):
            return None
        return cls([below + path for path in files] if below else files, stamps, listed)


def _names_by_folder(value: object) -> bool:
    return type(value) is dict and all(
        type(folder) is str and type(names) is list and (not names or _LISTED.issuperset(names)) for folder, names in value.items()
    )


_LISTED = frozenset(LISTED_NAMES)


def _walked(
    directory: str,
    excluder: Excluder,
    respect_gitignore: bool,
    snapshots: dict | None,
    unreadable: list,
    listed: dict | None,
    found: Found | None = None,
) -> list[str]:
    """The files below `directory` that git does not ignore, from a snapshot still true or a walk
    (a walk that met a folder it cannot list is not remembered: the next run says so again)."""
    # The folder as given too: its files are printed as spelled (`/abs/tree/a.sh`, `a.sh` for `.`).
    key = repr((os.path.abspath(directory), directory, excluder.key, excluder.root, respect_gitignore))
    if snapshots is not None:
        known = Snapshot.from_plain(snapshots.get(key))
        if known is not None and known.still_true():
            if listed is not None:
                listed.update((folder, tuple(names)) for folder, names in known.listed.items())
            return known.files
    from .repositories import Ignores

    ignores = Ignores(directory, _git_listing) if respect_gitignore else None
    stamps: dict[str, Stamp] | None = {} if snapshots is not None else None
    failures: list[tuple[str, str]] = []
    listed = {} if listed is None and snapshots is not None else listed
    walked = list(_walk(directory, excluder, stamps, failures, ignores, listed, found))
    if ignores is not None:
        ignores.close()
    files = walked if ignores is None or not ignores.decided else [path for path in walked if ignores.kept(path)]
    unreadable += failures
    if snapshots is not None and stamps is not None and not failures:
        sources = {**stamps, **(ignores.sources if ignores is not None else {})}
        snapshots[key] = Snapshot(files, sources, {folder: list(names) for folder, names in (listed or {}).items()}).plain(directory)
    return files


def discover(
    paths: Iterable[str],
    excludes: tuple[str, ...] = DEFAULT_EXCLUDES,
    respect_gitignore: bool = True,
    force_exclude: bool = False,
    snapshots: dict | None = None,
    unreadable: list | None = None,
    root: str | None = None,
    listed: dict[str, tuple[str, ...]] | None = None,
    found: Found | None = None,
) -> Iterator[str]:
    """Files to check, in a stable order. Explicit files are kept unless `force_exclude`.
    `snapshots` (kept by the result cache) lets a folder that has not changed skip its walk;
    folders that cannot be listed go to `unreadable` as (path, reason); `listed` and `found` are
    `_walk`'s."""
    seen: set[str] = set()
    excluder = Excluder(excludes, root)
    unreadable = [] if unreadable is None else unreadable
    paths = list(paths)
    for given in paths:
        if os.path.isdir(given):
            walked = _walked(os.path.normpath(given), excluder, respect_gitignore, snapshots, unreadable, listed, found)
            if len(paths) == 1:
                yield from walked  # one walk lists each file once
                continue
            for path in walked:
                if path not in seen:
                    seen.add(path)
                    yield path
        else:
            normal = os.path.normpath(given)
            if force_exclude and excluder.path(excluder.anchor(os.path.dirname(normal) or ".") + os.path.basename(normal)):
                continue
            if normal not in seen:
                seen.add(normal)
                yield given


def read_head(path: str) -> bytes:
    """The start of a file without a suffix, for its shebang (b"" for a FIFO, a device...)."""
    return read_file_head(path, _HEAD_BYTES)


READ_KINDS = "Python, notebooks, shell scripts, Dockerfiles, YAML, TOML, JSON, Makefiles, justfiles, systemd units, Procfiles, tox.ini, supervisord programs and Nomad jobs"


def unread_named(paths: Iterable[str]) -> Iterator[str]:
    """The files named on a command line that no frontend reads, each with why: named, a file
    must not pass unread as if it had been checked."""
    from ..frontends import kind_for

    for path in paths:
        if path == "-" or not os.path.isfile(path):
            continue
        name = os.path.basename(path)
        if kind_for(path, read_head(path) if "." not in name.lstrip(".") else b"") is None:
            what = "pyproject.toml is read for the project's vLLM pin only" if name.lower() == "pyproject.toml" else None
            yield f"{path}: skipped, {what or f'replaylint reads no file of this kind (it reads {READ_KINDS})'}"

"""The repositories a walk meets, and what git ignores in them, folder by folder.

git is asked only for each repository's index (`discovery._git_listing`); the ignore files are
read here (`gitignore`). A repository below the folder walked (a submodule, a nested clone) is
walked as a folder with its own rules and index, unless the outer repository ignores the
folder and does not track it.
"""

from __future__ import annotations

import os
from dataclasses import field
from typing import Callable, Optional, Tuple

from ..records import record
from .gitignore import IgnoreFile, InFolder, read
from .stamps import Stamp, stamp

# git reads the checked repository's own configuration, which may name programs for it to run
# (`core.fsmonitor` runs on every `git ls-files`; hooks, filters and the pager on other commands).
# Settings given with `-c` win over every configuration file, so each one that names a program
# is turned off; GIT_OPTIONAL_LOCKS=0 keeps git from writing the index (and so from running the
# `post-index-change` hook).
GIT = (
    "git",
    "--no-pager",
    *("-c", "core.fsmonitor=false"),
    *("-c", "core.hooksPath=/dev/null"),
    *("-c", "core.sshCommand=false"),
    *("-c", "core.gitProxy="),
    *("-c", "core.askPass="),
    *("-c", "credential.helper="),
    *("-c", "diff.external="),
    *("-c", "core.untrackedCache=false"),
    *("-c", "protocol.allow=never"),
)


def git_environment() -> dict[str, str]:
    return {**os.environ, "GIT_OPTIONAL_LOCKS": "0", "GIT_TERMINAL_PROMPT": "0", "GIT_PAGER": "cat"}


Rules = Tuple[InFolder, ...]  # each ignore file as it applies in the folder walked
Listing = Callable[[str], Callable[[], Optional[set]]]  # `discovery._git_listing`


def _verdict(rules: Rules, name: str, is_folder: bool) -> bool:
    """Whether git ignores `name` in the folder `rules` apply in: the deepest file that speaks
    of it decides, and its last pattern that does."""
    for in_folder in reversed(rules):
        found = in_folder.verdict(name, is_folder)
        if found is not None:
            return found
    return False


@record(eq=False)
class Repository:
    """A repository the walk met: its folder as the walk spells it, and its index (read meanwhile)."""

    folder: str
    listing: Callable[[], Optional[set]]
    outer: Optional[Repository] = None
    ignored_in_outer: bool = False  # below a folder the outer repository ignores
    _included: Optional[bool] = field(default=None, repr=False)
    _tracked: object = field(default=False, repr=False)  # False: not asked yet

    def tracked(self) -> Optional[set]:
        """The paths git tracks (None when git could not tell), waited for once."""
        if self._tracked is False:
            self._tracked = self.listing()
        return self._tracked  # type: ignore[return-value]

    def included(self) -> bool:
        """Whether its files are checked: not below a folder the outer repository ignores, unless
        the outer one tracks the folder (a submodule)."""
        if self._included is None:
            outer = self.outer
            self._included = outer is None or (outer.included() and (not self.ignored_in_outer or self.folder in (outer.tracked() or ())))
        return self._included


@record(eq=False)
class Level:
    """One folder of the walk: its repository (None outside git), the rules that apply in it, and
    whether git ignores the folder itself."""

    ignores: Ignores
    repository: Optional[Repository]
    rules: Rules
    ignored: bool

    def descend(self, path: str, name: str) -> None:
        """Prepare the level of the subfolder `name` (`path`), which the walk enters later."""
        ignored = self.ignored or (self.repository is not None and _verdict(self.rules, name, True))
        rules = tuple(in_folder.below(name) for in_folder in self.rules)
        self.ignores.levels[path] = Level(self.ignores, self.repository, rules, ignored)

    def files(self, paths: list[str], names: list[str]) -> None:
        """Tell what git ignores of the folder's files (`paths`, whose names are `names`)."""
        repository = self.repository
        if repository is None:
            return
        decided, rules, outer = self.ignores.decided, self.rules, repository.outer is not None
        if self.ignored:
            decided.update((path, (repository, True)) for path in paths)
            return
        for path, name in zip(paths, names):
            ignored = _verdict(rules, name, False)
            if ignored or outer:
                decided[path] = (repository, ignored)


MAX_LISTED = 64  # repositories whose index git is asked for in one walk: a tree of 10,000 `.git`
# folders does not start 10,000 processes (the others' tracked files count as untracked)


class Ignores:
    """What git ignores below one folder given to a walk: `enter` each folder the walk lists,
    then `kept` says which files are left, and `close` waits for git. A repository met below (a
    submodule, a nested clone) is walked as a folder with its own rules and index."""

    def __init__(self, directory: str, listing: Listing) -> None:
        self.levels: dict[str, Level] = {}
        self.decided: dict[str, tuple[Repository, bool]] = {}
        self.sources: dict[str, Stamp] = {}  # the files the verdicts rest on, for a snapshot
        self.repositories: list[Repository] = []
        self._listing = listing
        self._excludes: Optional[tuple[str, Optional[IgnoreFile]]] = None  # the user's, asked once a walk
        self._top = self._start(directory)

    def enter(self, folder: str, has_git: bool, has_gitignore: bool) -> Level:
        level = self.levels.pop(folder, None) or self._top
        if has_git:
            repository = self._repository(folder, level.repository, level.ignored)
            level = Level(self, repository, self._repository_rules(folder), False)
        if has_gitignore and level.repository is not None and not level.ignored:
            level.rules = _with(level.rules, read(os.path.join(folder, ".gitignore"), follow=False))
        return level

    def close(self) -> None:
        """Wait for every git this walk started."""
        for repository in self.repositories:
            repository.tracked()

    def _repository(self, folder: str, outer: Optional[Repository] = None, ignored_in_outer: bool = False) -> Repository:
        listing = self._listing(folder) if len(self.repositories) < MAX_LISTED and _git_may_read(folder) else lambda: None
        repository = Repository(folder, listing, outer, ignored_in_outer)
        self.repositories.append(repository)
        return repository

    def kept(self, path: str) -> bool:
        decided = self.decided.get(path)
        if decided is None:
            return True
        repository, ignored = decided
        return repository.included() and (not ignored or path in (repository.tracked() or ()))

    def _start(self, directory: str) -> Level:
        """The level of the folder given: the repository above it (when it is not one itself),
        with the rules of the folders between, and whether they ignore it."""
        absolute = os.path.abspath(directory)
        root = _repository_above(absolute)
        if root is None or os.path.lexists(os.path.join(absolute, ".git")):
            return Level(self, None, (), False)
        rules, ignored = self._repository_rules(root), False
        folder = root
        for name in os.path.relpath(absolute, root).split(os.sep):
            ignore = os.path.join(folder, ".gitignore")
            self.sources[ignore] = stamp(ignore)
            rules = _with(rules, read(ignore, follow=False))
            ignored = ignored or _verdict(rules, name, True)
            rules = tuple(in_folder.below(name) for in_folder in rules)
            folder = os.path.join(folder, name)
        return Level(self, self._repository(directory), rules, ignored)

    def _repository_rules(self, root: str) -> Rules:
        """The rules of a repository's root before its `.gitignore`: the user's excludes file,
        then `.git/info/exclude`; their stamps, the index's and the configurations' go to
        `sources`."""
        dot_git = os.path.join(root, ".git")
        if self._excludes is None:
            excludes = _excludes_file(root)
            self._excludes = (excludes, read(excludes, follow=True))
        exclude = os.path.join(dot_git, "info", "exclude")
        watched = (self._excludes[0], exclude, os.path.join(dot_git, "index"), os.path.join(dot_git, "config"), *_user_configurations())
        for path in (*watched, *([] if os.path.isdir(dot_git) else [dot_git])):  # `gitdir: ...`: where its index lives
            self.sources[path] = stamp(path)
        return tuple(found.in_folder("") for found in (self._excludes[1], read(exclude, follow=True)) if found is not None)


MAX_COST = 1024  # expressions a name is tried against in one folder, its ignore files and those above


def _with(rules: Rules, found: Optional[IgnoreFile]) -> Rules:
    """`rules` and the ignore file `found` of their folder, unless that would cost a name more
    than MAX_COST (a tree of nested `.gitignore` files each at the limit): it is then not read."""
    if found is None or sum(in_folder.file.cost for in_folder in rules) + found.cost > MAX_COST:
        return rules
    return (*rules, found.in_folder(""))


def _git_may_read(folder: str) -> bool:
    """Whether git can read the repository's files without waiting: `.git`, its configuration,
    index and HEAD are regular files (or folders), not FIFOs git's plain open() would wait on."""
    import stat as modes

    dot_git = os.path.join(folder, ".git")
    for path in (dot_git, *(os.path.join(dot_git, name) for name in ("config", "index", "HEAD"))):
        try:
            mode = os.stat(path).st_mode
        except OSError:
            continue
        if not (modes.S_ISREG(mode) or modes.S_ISDIR(mode)):
            return False
    return True


def _repository_above(folder: str) -> Optional[str]:
    """The first folder above `folder` that holds `.git`."""
    while True:
        parent = os.path.dirname(folder)
        if parent == folder:
            return None
        folder = parent
        if os.path.lexists(os.path.join(folder, ".git")):
            return folder


def _config_home() -> str:
    return os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")


def _user_configurations() -> tuple[str, str]:
    return os.path.join(os.path.expanduser("~"), ".gitconfig"), os.path.join(_config_home(), "git", "config")


def _excludes_file(root: str) -> str:
    """The file `core.excludesFile` names for the repository at `root` (git's default when unset).
    git is asked only when a configuration file may set it (it costs a process, 8 ms)."""
    default = os.path.join(_config_home(), "git", "ignore")
    configurations = (*_user_configurations(), os.path.join(os.sep, "etc", "gitconfig"), os.path.join(root, ".git", "config"))
    if not any(name.startswith("GIT_CONFIG") for name in os.environ) and not any(map(_may_name_excludes, configurations)):
        return default
    import subprocess

    try:
        named = subprocess.run(
            [*GIT, "config", "--get", "-z", "--path", "core.excludesFile"],
            cwd=root,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            env=git_environment(),
            timeout=10,
        ).stdout.rstrip(b"\0")
    except (OSError, subprocess.SubprocessError):
        named = b""
    return os.path.join(root, os.fsdecode(named)) if named else default


def _may_name_excludes(configuration: str) -> bool:
    from .. import files

    try:
        text = files.read_regular(configuration, 1 << 20).lower()
    except files.TooLarge:
        return True
    except files.Unreadable:
        return False
    return b"excludesfile" in text or b"include" in text

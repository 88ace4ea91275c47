"""Each file's configuration, as ruff's hierarchical settings: the closest configuration file's
(`config.find_config_file`, looked for once per folder) with the command line applied to it, no
merging of files. `--config FILE` and `--isolated` choose one configuration for every file.

Excludes follow the same rule: a folder with a configuration of its own is walked with that
configuration's `exclude` and `extend-exclude`, globs relative to its folder, as ruff's walk
applies the closest configuration's; a file named on the command line is left out only by its
own configuration's `force-exclude`.
"""

from __future__ import annotations

import os
from typing import Callable

from ..workspace.discovery import Excluder, Found, discover
from .config import Config, find_config_file, load

AsFound = Callable[[list[str], str | None], None]  # a folder's files; the folder walked, when they take its walk's configuration


class ConfigPerFile:
    def __init__(
        self, base: Config, over: Callable[[Config], None] | None = None, per_file: bool = True, known: dict | None = None
    ) -> None:
        self.base = base  # the run's: the closest to the checked paths, or every file's (`per_file` False)
        self.over = over  # the command line, applied to each configuration read
        self.per_file = per_file
        self._folders: dict[str, Config] = {}  # folder: the configuration of its files
        self.known: dict = {} if known is None else known  # what the searches saw of each folder (`find_config_file`): the run's first
        self._configs: dict[str | None, Config] = {None if base.source == "defaults" else base.source: base}  # that file (None: none)
        self._fingerprints: dict[int, str] = {}
        self._excluders: dict[int, Excluder] = {}

    def for_path(self, path: str) -> Config:
        """The configuration of the file `path` (raises ConfigError for a broken one)."""
        if not self.per_file:
            return self.base
        folder = os.path.dirname(path) or "."
        config = self._folders.get(folder)
        if config is None:
            found = find_config_file(folder, self.known)
            config = self._configs.get(found)
            if config is None:
                config = load(found) if found is not None else Config(root=os.getcwd())
                if self.over is not None:
                    self.over(config)
                self._configs[found] = config
            self._folders[folder] = config
        return config

    def fingerprint(self, path: str) -> str:
        """What the file's results depend on in its configuration, for the result cache."""
        config = self.for_path(path)
        if id(config) not in self._fingerprints:
            self._fingerprints[id(config)] = config.fingerprint()
        return self._fingerprints[id(config)]

    def files(
        self, paths: list[str], snapshots: dict | None = None, unlisted: list | None = None, as_found: AsFound | None = None
    ) -> list[str]:
        """The files to check below `paths`, in the walk's order (`discovery.discover`); raises
        ConfigError for a broken configuration file. `as_found` is told the files of each folder
        the first walks find, as they find them (the list returned may leave some out, a nested
        configuration's excludes, or add some), and the folder walked when their configuration is
        that walk's (`settle`)."""
        base, unlisted = self.base, [] if unlisted is None else unlisted
        if not self.per_file:
            told = (lambda folder, files: as_found(files, None)) if as_found is not None else None
            return list(
                discover(paths, base.excludes, base.respect_gitignore, base.force_exclude, snapshots, unlisted, base.root, found=told)
            )
        found: list[tuple[str, Config | None]] = []  # a file, and the configuration its folder was walked with
        settled: dict[str, Config] = {}  # a walked folder whose configuration is known to be its walk's
        named = {path for path in paths if not os.path.isdir(path)}
        for path in paths:
            if path in named:
                found.append((path, None))  # not walked
                continue
            walk = self.for_path(os.path.join(path, ""))  # the folder's own
            listed: dict[str, tuple[str, ...]] = {}
            same = self._same_as_walk(path, walk, settled)
            told = _telling(as_found, path, listed, same) if as_found is not None else None
            files = list(discover([path], walk.excludes, walk.respect_gitignore, False, snapshots, unlisted, walk.root, listed, told))
            self.known.update((("listed", os.path.abspath(folder)), names) for folder, names in listed.items())
            for folder, names in listed.items():  # (those the walk told already, and a snapshot's)
                same(folder, names)
            found += [(file, walk) for file in files]
        folders = [path for path in paths if path not in named]
        walks = len(paths)
        while nested := self._unsettled(found, settled):
            config = min(nested, key=lambda config: len(config.root))  # a folder before those inside it
            found = _walked_again(found, config, _walks(config.root, folders), snapshots, unlisted)
            walks += 1
        if walks > 1:  # one walk lists a file once
            unlisted[:] = list(dict.fromkeys(unlisted))
            unique: dict[str, tuple[str, Config | None]] = {}
            for entry in found:
                unique.setdefault(os.path.normpath(entry[0]), entry)
            found = list(unique.values())
        return [file for file, _ in found if file not in named or not self._force_excluded(file)]

    def _same_as_walk(self, path: str, walk: Config, settled: dict[str, Config]) -> Callable[[str, tuple[str, ...]], bool]:
        """Whether a folder of a walk of `path` (as the walk spells it, told after the folder
        holding it, with which of `LISTED_NAMES` it holds) takes the walk's configuration without
        a search, noted in `settled` and for `for_path`: each folder between it and `path` holds
        neither `.git` nor a configuration file's name, and `path`'s repository is one the search
        trusts (its files are then looked for up to the repository's root from any folder, as
        from `path`)."""
        absolute = os.path.abspath(path)
        top = self.known.get(("top", absolute))
        if top is None or self.known.get(("safe", top)) is not True:
            return lambda folder, names: False
        folders: set[str] = set()

        def same(folder: str, names: tuple[str, ...]) -> bool:
            if folder in folders:
                return True
            root = not folders and os.path.abspath(folder) == absolute
            if root or (folders and not names and (os.path.dirname(folder) or ".") in folders):
                folders.add(folder)
                settled[folder] = self._folders[folder] = walk
                return True
            return False

        return same

    def settle(self, folder: str, walked: str) -> None:
        """The files of `folder` take the configuration of the walk of the folder `walked` (as a
        walk in another process found: `files`' `as_found`)."""
        if folder not in self._folders:
            self._folders[folder] = self.for_path(os.path.join(walked, ""))

    def _unsettled(self, found: list[tuple[str, Config | None]], settled: dict[str, Config]) -> list[Config]:
        """The configurations of walked files that their folder's walk did not use (one look per
        folder not `settled` already)."""
        nested: list[Config] = []
        last = None
        for file, walked in found:
            folder = file[: file.rfind(os.sep) + 1]
            if walked is None or folder == last:
                continue
            last = folder
            if settled.get(folder[:-1] if len(folder) > 1 else folder or ".") is walked:
                continue
            config = self.for_path(file)
            if config is not walked:
                nested.append(config)
        return nested

    def _force_excluded(self, path: str) -> bool:
        """Whether the configuration of a file named on the command line leaves it out."""
        config = self.for_path(path)
        if not config.force_exclude:
            return False
        if id(config) not in self._excluders:
            self._excluders[id(config)] = Excluder(config.excludes, config.root)
        excluder, normal = self._excluders[id(config)], os.path.normpath(path)
        return excluder.path(excluder.anchor(os.path.dirname(normal) or ".") + os.path.basename(normal))


def _telling(as_found: AsFound, path: str, listed: dict[str, tuple[str, ...]], same: Callable[[str, tuple[str, ...]], bool]) -> Found:
    """What a walk of `path` tells `as_found` of each folder."""

    def told(folder: str, files: list[str]) -> None:
        settled = same(folder, listed[folder])
        if files:
            as_found(files, path if settled else None)

    return told


def _walked_again(
    found: list[tuple[str, Config | None]], config: Config, targets: list[str], snapshots: dict | None, unlisted: list
) -> list[tuple[str, Config | None]]:
    """`found` with the files walked below `config`'s folder replaced, in their place, by a walk
    of `targets` (that folder, or the checked folders inside it) with its excludes."""
    below = [walked is not None and _inside(os.path.abspath(file), config.root) for file, walked in found]
    position = below.index(True) if True in below else len(found)
    rest = [entry for entry, inside in zip(found, below) if not inside]
    again = discover(targets, config.excludes, config.respect_gitignore, False, snapshots, unlisted, config.root)
    return rest[:position] + [(file, config) for file in again] + rest[position:]


def _walks(root: str, folders: list[str]) -> list[str]:
    """What to walk of the folder `root`: itself, spelled from the checked folder holding it, or
    the checked folders inside it."""
    for folder in folders:
        absolute = os.path.abspath(folder)
        if _inside(root, absolute):
            return [os.path.normpath(os.path.join(folder, os.path.relpath(root, absolute)))]
    return [folder for folder in folders if _inside(os.path.abspath(folder), root)]


def _inside(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)

"""The result cache: JSON stores in `.replaylint_cache/`, keyed by content, that run no code.

An entry holds a file's findings and notes under the digest of its bytes, the configuration's
fingerprint and replaylint's version, plus the digests of the other files its result read (a
`--config` YAML, the project's pins). Files with findings are cached too. Files the prefilter
rejects are remembered by their size and time only: a stat decides them in a warm run. And the
folders walked are remembered with their files (`discovery.Snapshot`), and the project pins
described (`recalled_pins.RecalledPins`): a warm run stats them instead of walking the tree and
asking git again. What each file says of replay servers and their clients (`served.Served`)
is kept with its result, and, for files the prefilter turned away that a run read for clients
(`cross_file`), by their stat: a run that checks some files ties their clients to the servers
of the others from here.

The folder may come with the tree, so nothing in it is trusted. A store is a line with the
keyed BLAKE2b (hex) of its file name and body, then the body, JSON: the key is this user's and
lives outside the tree (`secret`), so a store another user or a pull request made is ignored.
A store that does not verify, cannot be read or does not have the expected shape is read as
absent, and so is an entry whose values have the wrong types. The folder and its files are
never opened through a symlink (`folder`), and a folder replaylint did not make for this user
(one that came with the tree) is neither read nor written; a store is signed with its generation,
kept next to the key, so an older store put back does not verify (`ownership`). A store larger
than `stores.STORE_BYTES` is not read, but removed. When the folder cannot be used or no key can be
kept, the run goes on without the cache and says so once.
"""

from __future__ import annotations

import os
import sys
import time

from ... import __version__
from . import folder
from .dependencies import ABSENT, dependency_digest, digest, digests
from .entries import Entry, encoded_served, entry_of
from .folder import CACHE_DIR
from .ownership import SERVING, Generations, claim, identity
from .removal import NotRemoved, remove_cache
from .stat_columns import full_stat, packed, stat_of, unpacked
from .stores import Remembered, Store

TYPE_CHECKING = False  # (`typing` costs a run whose report is given again a tenth of its time: `last_run`)
if TYPE_CHECKING:
    from typing import Any, Callable

__all__ = ["CACHE_DIR", "NotRemoved", "ResultCache", "default_directory", "remove_cache"]
_FORMAT = 14  # 14: a file's served facts say whether its clients were left unread (`clients_unread`)
_DIGEST_CHARACTERS = 64  # `digest`'s: a result's key is the digest of the file's bytes, then its context
_SETTLED_NS = 2_000_000_000  # the coarsest clock step of a common file system (FAT's two seconds)
# Times with digits below 10 ms come from a file system that keeps them finer, in the kernel's
# clock ticks (1-10 ms): a tenth of a second tells a later write from the one read.
_FINE_STEP_NS, _FINE_SETTLED_NS = 10_000_000, 100_000_000
_IGNORE = b"# Created by replaylint\n*\n"


class ResultCache:
    """Results of the files the prefilter let through, by content; and the files it turned away,
    by size and modification time (their verdict depends only on replaylint's version, and
    comparing a stat is cheaper than reading them again)."""

    def __init__(self, directory: str, fingerprint: str | Callable[[], str], note: Callable[[str], None] | None = None) -> None:
        self.directory = directory
        self._say = note if note is not None else _note
        self._prefix = os.getcwd().rstrip("/") + "/"
        self._fingerprint = fingerprint
        self._key: bytes | None | bool = False  # False: not loaded yet
        self._usable = True  # the folder: False once it turned out a symlink, not a folder or not this user's
        self._generations: Generations | None = None
        self._told: set[str] = set()
        self._results = Store(self, self._results_name)
        self._clean = Store(self, lambda: f"clean-{__version__}-{_FORMAT}.json", self._decode_stats, self._encode_stats)
        self._trees = Store(self, lambda: f"trees-{__version__}-{_FORMAT}.json")
        self._scanned = Store(self, lambda: f"clients-{__version__}-{_FORMAT}.json")
        self._serving = False
        self._started = time.time_ns()
        self._trees_used: set[str] = set()
        self.unsettled = False  # a stat was too recent to keep (`settled`), or a file changed as it was read

    def _results_name(self) -> str:
        """One file per configuration: its key needs the rule table, so it waits for the first
        file that gets past the prefilter."""
        fingerprint = self._fingerprint() if callable(self._fingerprint) else self._fingerprint
        return f"results-{digest(f'{__version__}{_FORMAT}{fingerprint}'.encode())[:16]}.json"

    @property
    def key(self) -> bytes | None:
        """This user's key; None when none can be kept (said once), or the folder is unusable."""
        if self._key is False:
            from .secret import NoKey, load

            try:
                self._key = load()
            except NoKey as error:
                self._note(str(error))
                self._key = None
        return self._key if self._usable else None

    def open_folder(self, create: bool = False) -> int | None:
        """A descriptor of the cache folder (the caller closes it); None when it is absent or
        unusable (said once)."""
        key = self.key
        if key is None:
            return None
        try:
            descriptor = folder.open_folder(self.directory, create=create)
        except folder.Unusable as error:
            self._usable = False
            self._note(f"{self.directory} {error}")
            return None
        if descriptor is not None and not claim(descriptor, key):
            os.close(descriptor)
            self._usable = False
            self._note(
                f"{self.directory} was not made by replaylint for this user (it came with the tree, or from an older release): `replaylint clean` removes it"
            )
            return None
        if descriptor is not None and self._generations is None:
            from .secret import key_folder

            self._generations = Generations(key_folder() or "", key, identity(descriptor))
        return descriptor

    @property
    def generations(self) -> Generations:
        """The generations of this folder's stores (after `open_folder` gave a descriptor)."""
        assert self._generations is not None
        return self._generations

    def _note(self, why: str) -> None:
        """Say once why the cache is not used."""
        if why not in self._told:
            self._told.add(why)
            self._say(f"the result cache is not used: {why}")

    def lookup(self, path: str, content_digest: str, stat: tuple[int, ...] | None = None) -> Entry | None:
        """The cached result of `path` when neither it nor anything it read has changed. `stat`,
        the file's `full_stat` taken before the bytes digested were read, is kept with the
        result (`recall` then finds it without reading the file) unless it is too recent to tell
        a later write from the one read (`settled`)."""
        stored = self._results.data.get(self._key_of(path))
        if type(stored) is not dict or stored.get("digest") != content_digest or stored.get("spelled") != path:
            return None
        if not self._dependencies_unchanged(stored):
            return None
        if stat is not None and len(stat) == 4 and self.settled(stat) and stored.get("stat") != list(stat):
            stored["stat"] = list(stat)
            self._results.dirty = True
        return entry_of(stored)

    def recall(self, path: str, stat: tuple[int, ...], context: str) -> Entry | None:
        """The cached result of `path` without reading it: its `full_stat` is the one a lookup kept
        (size, modification and change time, inode: a file written, touched or replaced has
        another), the rest of its key (`context`: its pin, its configuration) is the same, and
        the files its result read keep their content."""
        stored = self._results.data.get(self._key_of(path))
        if type(stored) is not dict or stored.get("spelled") != path or stored.get("stat") != list(stat):
            return None
        key = stored.get("digest")
        if type(key) is not str or key[_DIGEST_CHARACTERS:] != context or not self._dependencies_unchanged(stored):
            return None
        return entry_of(stored)

    def _dependencies_unchanged(self, stored: dict) -> bool:
        """Whether each file a stored result read keeps the content it had: by its stat when the
        one kept beside its digest is still its own, else by its digest (and its stat, taken
        before the read, is kept for the next run)."""
        dependencies, stats = stored.get("dependencies"), stored.get("dependency_stats")
        if type(dependencies) is not dict:
            return False
        if type(stats) is not dict:
            stats = stored["dependency_stats"] = {}
        for dependency, expected in dependencies.items():
            now = stat_of(dependency)
            if now is not None and stats.get(dependency) == list(now):
                continue
            if dependency_digest(dependency) != expected:
                return False
            if now is not None and self.settled(now):
                stats[dependency] = list(now)
                self._results.dirty = True
        return True

    def settled(self, stat: tuple[int, ...]) -> bool:
        """Whether the file's times are older than this run by more than a file system's clock
        step: a write in the same step as the read would leave them as they were. (One that is
        not leaves no report of this run to give again: `unsettled`.)"""
        latest = max(stat[1], stat[2])
        settled = latest <= self.settled_until or (
            bool(stat[1] % _FINE_STEP_NS and stat[2] % _FINE_STEP_NS) and latest <= self._started - min(_FINE_SETTLED_NS, _SETTLED_NS)
        )
        self.unsettled |= not settled
        return settled

    @property
    def settled_until(self) -> int:
        """The latest time (ns) any settled stat may hold, whatever its file system (`settled`)."""
        return self._started - _SETTLED_NS

    def store(
        self,
        path: str,
        content_digest: str,
        findings: list,
        notes: list[str],
        kind: str | None,
        dependencies: list[str],
        served: Any = None,
    ) -> None:
        if findings:
            from .findings import Unstorable, encode

            try:
                encoded = [encode(finding) for finding in findings]
            except Unstorable:
                return
        else:
            encoded = []
        hashes = digests(dependencies)
        self._results.data[self._key_of(path)] = {
            "digest": content_digest,
            "spelled": path,  # the path as the run that stored it named the file: its findings name it so
            "kind": kind,
            "notes": list(notes),
            "dependencies": hashes,
            "findings": encoded,
            "served": encoded_served(served),
        }
        self._results.dirty = True

    def holding_served(self) -> list[str]:
        """The files, as the runs that stored them spelled them, whose results or client scans say
        something of replay servers or their clients."""
        results = [stored["spelled"] for stored in self._results.data.values() if type(stored) is dict and stored.get("served")]
        scanned = [path for path, stored in self._scanned.data.items() if type(stored) is list and len(stored) == 4 and stored[1]]
        return [path for path in dict.fromkeys(results + scanned) if type(path) is str]

    def scanned(self, path: str, stat: tuple[int, int, int, int], settings: str) -> Any:
        """What a scan for clients found in a file the prefilter turned away (`served.Served`),
        while it keeps its stat, the files the scan read (a `--config` YAML) their content, and
        the scan's `settings` (its file's `forwarded-arguments`...) are the same; None when it
        was not scanned so."""
        stored = self._scanned.data.get(self._clean_key(path))
        if type(stored) is not list or len(stored) != 4 or stored[0] != list(stat) or type(stored[2]) is not dict or stored[3] != settings:
            return None
        if any(dependency_digest(dependency) != expected for dependency, expected in stored[2].items()):
            return None
        from ...served import Served
        from .served_json import decode

        try:
            return decode(stored[1]) if stored[1] else Served()
        except ValueError:
            return None

    def serving(self) -> bool:
        """Whether a run found a replay server in the tree (`SERVING` left in the folder): until one
        does, a run asks none of the stores what other files say of servers and clients."""
        return self._serving or os.path.isfile(os.path.join(self.directory, SERVING))

    def mark_serving(self) -> None:
        """Leave `SERVING` in the folder: the tree starts a replay server, so a pre-commit run that
        names only files the prefilter turns away reads them for clients (`check_command`)."""
        self._serving = True

    def scanned_dependencies(self, path: str) -> list[str]:
        """The files a scan for clients of `path` read (`scanned`), as kept."""
        stored = self._scanned.data.get(self._clean_key(path))
        return (
            [name for name in stored[2] if type(name) is str]
            if type(stored) is list and len(stored) == 4 and type(stored[2]) is dict
            else []
        )

    def remember_scan(self, path: str, stat: tuple[int, int, int, int], served: Any, dependencies: list[str], settings: str) -> None:
        self._scanned.data[self._clean_key(path)] = [list(stat), encoded_served(served), digests(dependencies), settings]
        self._scanned.dirty = True

    def _key_of(self, path: str) -> str:
        """`os.path.abspath(path)`, without a getcwd and a normpath per file for the normalised
        paths discovery gives."""
        if _normalised(path):
            return path if path[0] == "/" else self._prefix + path
        return os.path.abspath(path)

    def _clean_key(self, path: str) -> str:
        """The key of `path` among the files turned away: relative to the working folder when
        below it (as discovery spells the files of `.`, which a warm run looks up), else absolute."""
        if _normalised(path) and path[0] != "/":
            return path
        key = self._key_of(path)
        return key[len(self._prefix) :] if key.startswith(self._prefix) else key

    def _encode_stats(self, data: dict) -> dict:
        return packed(data, self._prefix)

    def _decode_stats(self, value: object) -> dict | None:
        return unpacked(value, self._prefix, self._clean_key)

    @property
    def snapshots(self) -> Remembered:
        """What discovery and the project pins remember between runs, as JSON values by string
        keys (`discovery.Snapshot.plain`, `recalled_pins.RecalledPins`): each checks the shape of
        what it gets back."""
        return Remembered(self._trees, self._trees_used)

    def remembered_used(self) -> list:
        """The values of `snapshots` this run asked for or set (`last_run`)."""
        return [self._trees.data.get(key) for key in self._trees_used]

    def clean_stat(self, path: str) -> tuple[int, int, int, int] | None:
        """The stat the file was remembered as turned away with (`is_clean`)."""
        return self._clean.data.get(self._clean_key(path))

    def clean_stats(self, paths: list[str]) -> list:
        """`clean_stat` of each path, by `still_clean`'s keys (another spelling finds None)."""
        clean, prefix, below, posix = self._clean.data, self._prefix, len(self._prefix), os.sep == "/"
        return [clean.get(path[below:] if path.startswith(prefix) else path) if posix else self.clean_stat(path) for path in paths]

    def recalled_stats(self, path: str) -> list[tuple[str, tuple | None]] | None:
        """The stat `recall` finds the file's result by, and those of the files it read (None
        for one it looked for and did not find); None when one is not kept."""
        stored = self._results.data.get(self._key_of(path))
        if type(stored) is not dict or stored.get("spelled") != path or type(stored.get("stat")) is not list:
            return None
        dependencies, stats = stored.get("dependencies"), stored.get("dependency_stats")
        if type(dependencies) is not dict or type(stats) is not dict:
            return None
        kept = [(path, tuple(stored["stat"]))]
        for dependency, expected in dependencies.items():
            found = stats.get(dependency)
            if expected == ABSENT:
                kept.append((dependency, None))
            elif type(found) is not list:
                return None
            else:
                kept.append((dependency, tuple(found)))
        return kept

    def turned_away(self, suffixes: tuple[str, ...]) -> list[str]:
        """The files an earlier run remembered as turned away whose names end with `suffixes`: a
        run that names a few files knows the tree's others by them (`cross_file`'s Kubernetes
        Services). Each may have changed or gone since: a reader reads it as it is now."""
        return [path for path in self._clean.data if path.endswith(suffixes)]

    def remembers_files(self) -> bool:
        """Whether an earlier run of this version remembered files the prefilter turned away."""
        return bool(self._clean.data)

    def is_clean(self, path: str, stat: tuple[int, ...]) -> bool:
        """Whether the file was turned away with this (size, time), and its change time and inode
        are still the same: a file replaced by one of the same size and time is read again."""
        expected = self._clean.data.get(self._clean_key(path))
        return expected is not None and expected[:2] == tuple(stat[:2]) and expected == full_stat(path, stat)

    def still_clean(self, paths: list[str]) -> list[bool]:
        """`is_clean` of each path with its current stat, in one loop: a warm run asks it of every
        file of the tree, and a path the prefilter never turned away costs no stat. The key is
        `_clean_key`'s for the normalised paths discovery gives; another spelling misses here and
        is asked again through `is_clean`."""
        clean, prefix, stat, key = self._clean.data, self._prefix, os.stat, (None if os.sep == "/" else self._clean_key)
        below = len(prefix)
        answers: list[bool] = []
        answer = answers.append
        for path in paths:
            expected = clean.get(key(path) if key else path[below:] if path.startswith(prefix) else path)
            if expected is None:
                answer(False)
                continue
            try:
                status = stat(path)
            except OSError:
                answer(False)
                continue
            answer(
                status.st_mtime_ns == expected[1]
                and status.st_size == expected[0]
                and status.st_ctime_ns == expected[2]
                and status.st_ino == expected[3]
            )
        return answers

    def mark_clean(self, path: str, stat: tuple[int, ...]) -> None:
        """Remember the file as turned away when read with `stat`: (size, mtime) or `stat_columns.full_stat`'s.
        A stat too recent to tell a later write from the one read (`settled`) is not kept, and
        what was kept of the file before is forgotten."""
        full = full_stat(path, stat)
        key = self._clean_key(path)
        if full is None or not self.settled(full):
            self.unsettled = True
            if self._clean.data.pop(key, None) is not None:
                self._clean.dirty = True
        elif self._clean.data.get(key) != full:
            self._clean.data[key] = full
            self._clean.dirty = True

    def save(self) -> None:
        stores = [store for store in (self._results, self._clean, self._trees, self._scanned) if store.dirty]
        key = self.key if stores or self._serving else None
        if key is None:
            return
        descriptor = self.open_folder(create=True)
        if descriptor is None:
            return
        try:
            if not folder.is_regular(descriptor, ".gitignore"):
                folder.replace(descriptor, ".gitignore", _IGNORE)
            if self._serving and not folder.is_regular(descriptor, SERVING):
                folder.replace(descriptor, SERVING, b"")
        except OSError:
            pass  # a folder in its place: the stores can still be written
        try:
            for store in stores:
                store.write(descriptor, key)
        finally:
            os.close(descriptor)


def _normalised(path: str) -> bool:
    """Whether `path` has no `.` or `..` part, no doubled or trailing slash (on POSIX): as
    discovery gives paths, and as `os.path.abspath` would leave them."""
    return os.sep == "/" and bool(path) and path[-1] not in "/." and "./" not in path and "//" not in path


def default_directory(root: str) -> str:
    return os.path.join(root, CACHE_DIR)


def _note(message: str) -> None:
    print(f"replaylint: note: {message}", file=sys.stderr)

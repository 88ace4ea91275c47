"""The last run's report, given again while nothing it rested on has changed.

A check over folders (no file named, no fix, the default cache folder) that said nothing on
stderr leaves its report in the cache folder, signed like the stores (`RUN_STORE`), with all
its outcome rested on: a digest of the command line, the working folder, the environment
variables replaylint and git read, and whether stdout is a terminal (`run_digest`); the real
path of each folder checked and which folders above it hold `.git`; what the configuration
search saw of each folder it looked in (which configuration files and `.git` are there, who
may write it); and the stat of every folder walked, `.gitignore`, configuration and pin file,
of every file whose verdict the stores of files turned away and of results keep by its stat,
and of the files those results read. The next run with the same digest stats them all before
anything else is imported; when each is as kept, it prints the report and exits with the same
status. Any difference, or a store that does not verify, and the run goes on as usual.

Every stat kept is older than the run's start by a file system's clock step (`ResultCache.settled`): a
write during the run, or just before it, leaves no report to give again. In a tree that starts
a replay server, the files its clients were looked for in are kept too (`RunFacts.clients`).
"""

from __future__ import annotations

import os
import stat
import sys
from array import array

from ... import __version__
from . import ResultCache, digest
from .folder import remove
from .ownership import blake2b
from .stat_columns import columns as packed_columns, numbers_in, stat_of
from .stores import Store

TYPE_CHECKING = False  # (`typing` costs a run given again a tenth of its time)
if TYPE_CHECKING:
    from collections.abc import Callable

RUN_STORE = f"run-{__version__}-3.json"
_KEYED_NAMES = ("NO_COLOR", "FORCE_COLOR", "PRE_COMMIT", "HOME", "XDG_CACHE_HOME", "XDG_CONFIG_HOME")
_KEYED_PREFIXES = ("REPLAYLINT_", "GIT_")


def run_digest(words: list[str]) -> str:
    """What a run's report rests on besides the files: its words, working folder, environment
    and whether its report goes to a terminal (colour)."""
    environment = sorted((name, value) for name, value in os.environ.items() if name in _KEYED_NAMES or name.startswith(_KEYED_PREFIXES))
    try:
        terminal = sys.stdout.isatty()
    except (AttributeError, ValueError, OSError):
        terminal = None
    facts = repr((__version__, os.getcwd(), words, environment, terminal, getattr(os, "geteuid", int)()))
    return digest(facts.encode("utf-8", "surrogateescape"))


def cache_folder(words: list[str]) -> str | None:
    """The cache folder a run of `words` uses when it is the default one (no `--cache-dir`, no
    `--no-cache`, in any spelling): the only one a run looks in before its configuration is read."""
    if any(word.startswith(("--cache", "--no-c")) for word in words) or no_cache_asked(os.environ.get("REPLAYLINT_NO_CACHE")):
        return None
    return os.environ.get("REPLAYLINT_CACHE_DIR") or ".replaylint_cache"


def no_cache_asked(value: str | None) -> bool:
    """Whether `REPLAYLINT_NO_CACHE` turns the cache off (clap's falsey words leave it on, as ruff's)."""
    return value is not None and value.strip().lower() not in ("", "n", "no", "f", "false", "off", "0")


def replayed(words: list[str]) -> tuple[str, int] | None:
    """The report and exit status of the last run of `words`, when nothing it rested on has
    changed since; None otherwise."""
    directory = cache_folder(words)
    if directory is None or not os.path.isdir(directory):
        return None
    kept = Store(ResultCache(directory, "", _silent), lambda: RUN_STORE).data
    if not kept or kept.get("run") != run_digest(words):
        return None
    report, status = kept.get("report"), kept.get("status")
    if type(report) is not str or status not in (0, 1) or not _still_true(kept):
        return None
    return report, status


def _silent(message: str) -> None:
    """A cache that cannot be used says why in the run that follows, not here."""


def _still_true(kept: dict) -> bool:
    """Whether every path kept is as kept. The stats are compared by chunks of folders, the
    folders changed last first (a tree being edited changes there again): a forked process takes
    every other chunk, this one the rest and the other paths; either stops at the first change."""
    folders, chunks = kept.get("folders"), kept.get("chunks")
    if type(folders) is not list or type(chunks) is not list:
        return False
    parts, start = [], 0
    for chunk in chunks:
        if type(chunk) is not list or len(chunk) != 2 or type(chunk[0]) is not int or type(chunk[1]) is not str or chunk[0] <= start:
            return False
        parts.append((folders[start : chunk[0]], chunk[1]))
        start = chunk[0]
    if start != len(folders):
        return False
    other = _forked(lambda: _unchanged(parts[1::2]))
    mine = _unchanged(parts[0::2]) and _paths_hold(kept)
    return _joined(other, stop=not mine) and mine


def _unchanged(parts: list[tuple[list, str]]) -> bool:
    return all(_digest_now(folders) == expected for folders, expected in parts)


def _paths_hold(kept: dict) -> bool:
    """The real paths of the folders checked, which paths exist, and the owners of the folders
    the configuration search trusted."""
    real, absent, present, owners = kept.get("real"), kept.get("absent"), kept.get("present"), kept.get("owners")
    if not (_pairs(real) and _strings(absent) and _strings(present) and type(owners) is list):
        return False
    if any(os.path.realpath(path) != target for path, target in real):
        return False
    if any(_presence(path) is not False for path in absent) or any(_presence(path) is not True for path in present):
        return False
    return all(type(entry) is list and len(entry) == 3 and type(entry[0]) is str and _owner(entry[0]) == entry[1:] for entry in owners)


def _forked(check: Callable[[], bool]) -> bool | int:
    """`check()` in a forked process: its id (`_joined` waits for its answer); the answer itself
    when this machine has one core or cannot fork."""
    if len(os.sched_getaffinity(0)) < 2 if hasattr(os, "sched_getaffinity") else True:
        return check()
    try:
        child = os.fork()
    except OSError:
        return check()
    if child == 0:
        answer = False
        try:
            answer = check()
        finally:
            os._exit(0 if answer else 1)
    return child


def _joined(forked: bool | int, stop: bool = False) -> bool:
    """The answer of `_forked`, waited for; with `stop`, the process is ended first (its answer is not needed)."""
    if type(forked) is bool:
        return forked
    try:
        if stop:
            os.kill(forked, 9)  # SIGKILL
        _, status = os.waitpid(forked, 0)
    except OSError:
        return False
    return os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0


def _digest_now(folders: list) -> str | None:
    """`_stats_digest` of the paths as they are now, by folder; None when one cannot be stated."""
    numbers, inodes = array("q"), array("Q")
    add, add_inode, stat_now = numbers.extend, inodes.append, os.stat
    for entry in folders:
        if type(entry) is not list or len(entry) != 2 or type(entry[0]) is not str or not _strings(entry[1]):
            return None
        folder = entry[0]
        for name in entry[1]:
            try:
                status = stat_now(folder + name)
                add((status.st_size, status.st_mtime_ns, status.st_ctime_ns))
                add_inode(status.st_ino)
            except (OSError, ValueError, OverflowError):
                return None
    return _stats_digest(numbers, inodes)


def _stats_digest(numbers: array, inodes: array) -> str:
    """The digest of the stats (size, mtime, ctime) and inodes of the paths, in their order: a run
    compares it, not each number (the numbers would make the store twice as large)."""
    return blake2b()(numbers.tobytes() + inodes.tobytes(), digest_size=32).hexdigest()


def _pairs(value: object) -> bool:
    return type(value) is list and all(type(pair) is list and len(pair) == 2 and _strings(pair) for pair in value)


def _strings(value: object) -> bool:
    return type(value) is list and all(type(item) is str for item in value)


def _presence(path: str) -> bool | None:
    """Whether `path` exists (not following a symlink); None for a symlink, whose target may change."""
    try:
        return None if stat.S_ISLNK(os.lstat(path).st_mode) else True
    except FileNotFoundError:
        return False
    except (OSError, ValueError):
        return None


def _owner(folder: str) -> list[int] | None:
    """Who owns the folder and its permissions: what the configuration search trusts it by."""
    try:
        status = os.stat(folder)
    except (OSError, ValueError):
        return None
    return [status.st_uid, stat.S_IMODE(status.st_mode)]


_CHUNK_PATHS = 256  # paths compared under one digest: a change stops the comparison within a chunk


def _chunk_ends(counts: list[int]) -> list[int]:
    """Where the chunks of folders end (exclusive), each with about `_CHUNK_PATHS` paths."""
    ends, count = [], 0
    for position, names in enumerate(counts):
        count += names
        if count >= _CHUNK_PATHS:
            ends.append(position + 1)
            count = 0
    return ends if count == 0 and ends else [*ends, len(counts)]


class RunFacts:
    """What a run's report rested on, gathered after it as a run to give again (`remember`)."""

    def __init__(self, result_cache: ResultCache) -> None:
        self._cache = result_cache
        self._stats: dict[str, tuple[int, int, int, int]] = {}
        self._absent: set[str] = set()
        self._present: set[str] = set()
        self._owners: dict[str, list[int]] = {}
        self._real: dict[str, str] = {}
        self.complete = True  # False once something is not kept by a stat: no report is left then

    def stat(self, path: str, kept: tuple[int, ...] | None) -> None:
        """`path` with the stat (size, mtime, ctime, inode) its verdict was made with (settled
        and packable, `remember` checks)."""
        if kept is None or len(kept) != 4 or self._stats.setdefault(path, kept) != kept:
            self.complete = False

    def stat_now(self, path: str) -> None:
        """`path` as it is now: its stat, or its absence (a symlink's target is stated, not the link)."""
        try:
            status = os.lstat(path)
        except FileNotFoundError:
            self._absent.add(path)
            return
        except (OSError, ValueError):
            status = None
        self.stat(path, stat_of(path) if status is None or stat.S_ISLNK(status.st_mode) else numbers_in(status))

    def stamps(self, stamps: dict) -> None:
        """`workspace.stamps` kept by a snapshot or the pins: (mtime, size, ctime, inode), or None for absent."""
        for path, found in stamps.items():
            if found is None:
                self._absent.add(path)
            else:
                self.stat(path, (found[1], found[0], found[2], found[3]))

    def repository_marks(self, folder: str) -> None:
        """Which folders from `folder` up hold `.git`, as far as the first that does."""
        while True:
            marker = os.path.join(folder, ".git")
            present = _presence(marker)
            if present is None:
                self.complete = False
                return
            (self._present if present else self._absent).add(marker)
            parent = os.path.dirname(folder)
            if present or parent == folder:
                return
            folder = parent

    def searched(self, known: dict) -> None:
        """What the configuration search saw (`config.find_config_file`'s `known`): of each folder
        it looked in, its configuration files, `.git` and owner; each repository it trusted is
        trusted by its owner (not by git's `safe.directory`, which lives elsewhere)."""
        from ...files import trusted
        from ...workspace.discovery import CONFIG_NAMES

        for key, value in known.items():
            if key[0] == "safe" and (value is not True or not trusted(key[1], folder=False)):
                self.complete = False
        stamped = self._stamped()
        for folder in dict.fromkeys(key[1] for key in known if key[0] in ("search", "names", "top")):
            if folder in stamped:  # a name added or removed, an owner or mode changed: its stamp tells
                for name in CONFIG_NAMES:
                    if _presence(os.path.join(folder, name)) is not False:
                        self.stat_now(os.path.join(folder, name))
                continue
            owner = _owner(folder)
            if owner is None:
                self.complete = False
                continue
            self._owners[folder] = owner
            for name in CONFIG_NAMES:
                self.stat_now(os.path.join(folder, name))
            marker = _presence(os.path.join(folder, ".git"))
            if marker is None:
                self.complete = False
            else:
                (self._present if marker else self._absent).add(os.path.join(folder, ".git"))

    def _stamped(self) -> set[str]:
        """The absolute paths kept by a stamp so far (`remembered` first): relative ones are the
        walk's, normalised below the working folder."""
        here = os.getcwd()
        return {path if path[:1] == os.sep else here if path == "." else os.path.join(here, path) for path in self._stats}

    def real(self, path: str) -> None:
        self._real[path] = os.path.realpath(path)

    def remembered(self) -> None:
        """The stamps of what discovery and the pins remembered and the run used (`ResultCache.snapshots`)."""
        from ...workspace.stamps import from_plain

        for value in self._cache.remembered_used():
            stamps = from_plain(value.get("stamps")) if type(value) is dict else None
            if stamps is None:
                self.complete = False
            else:
                self.stamps(stamps)

    def results(self, results: list) -> None:
        """Each file's verdict by the stat a store keeps it with: turned away (`is_clean`),
        recalled (`recall`, and the stats of the files its result read), or decided by its name
        (a suffix no frontend reads: no stat)."""
        for result in results:  # (a file checked in this run has no stat kept yet: say so at once)
            if result.parsed or result.digest is not None:
                kept = self._cache.recalled_stats(result.path)
                if kept is None:
                    self.complete = False
                    return
                for dependency, its in kept:
                    if its is None:
                        self._absent.add(dependency)
                    else:
                        self.stat(dependency, its)
        stats, cut = self._stats, os.sep
        for result, found in zip(results, self._cache.clean_stats([result.path for result in results])):
            path = result.path
            if result.parsed or result.digest is not None:
                continue
            elif found is not None:
                if stats.setdefault(path, found) != found:
                    self.complete = False
            elif result.kind is not None or "." not in path[path.rfind(cut) + 1 :]:
                self.stat(path, self._cache.clean_stat(path))  # (another spelling of the path)
            if not self.complete:
                return

    def clients(self, results: list) -> None:
        """What tying clients to the servers of other files read (`run.cross_file`): the files
        of the cache that hold servers or clients (each one the run checked, or absent), and the
        files the scans for clients of the files turned away read."""
        checked = {os.path.abspath(result.path) for result in results}
        for path in self._cache.holding_served():
            if os.path.abspath(path) not in checked:
                if _presence(path) is not False:
                    self.complete = False
                    return
                self._absent.add(path)
        for result in results:
            if result.digest is None and not result.parsed:
                for dependency in self._cache.scanned_dependencies(result.path):
                    self.stat_now(dependency)

    def shown(self, findings: list) -> None:
        """The files whose text the report shows (a finding's place, and those it relates)."""
        for path in dict.fromkeys(path for finding in findings for path in (finding.span.path, *(span.path for span in finding.related))):
            self.stat_now(path)  # once a file, however many findings it holds

    def _by_folder(self) -> list[tuple[str, tuple[list[str], list[tuple]]]]:
        """The paths kept grouped by folder (their names, their stats), in the order first met."""
        groups: dict[str, tuple[list[str], list[tuple]]] = {}
        posix = os.sep == "/"
        for path, kept in self._stats.items():
            cut = path.rfind("/") + 1 if posix else 0
            group = groups.get(path[:cut])
            if group is None:
                group = groups[path[:cut]] = ([], [])
            group[0].append(path[cut:])
            group[1].append(kept)
        return list(groups.items())

    def _settled(self, numbers: array) -> bool:
        """Whether the packed stats are all older than the run by a clock step (`ResultCache.settled`)."""
        until, mtimes, ctimes = self._cache.settled_until, numbers[1::3], numbers[2::3]
        if not numbers or (max(mtimes) <= until and max(ctimes) <= until):
            return True
        return all(self._cache.settled((0, mtime, ctime)) for mtime, ctime in zip(mtimes, ctimes) if max(mtime, ctime) > until)

    def remember(self, words: list[str], report: str, status: int) -> None:
        """Leave the report for the next run of `words`, when all it rested on was kept (else
        forget the last one: it no longer holds)."""
        if not self.complete or self._absent & set(self._stats):
            forget(self._cache)
            return
        listed = self._by_folder()
        listed.sort(key=lambda group: max(max(stat[1], stat[2]) for stat in group[1][1]), reverse=True)  # changed last first
        ends = _chunk_ends([len(names) for _, (names, _) in listed])
        try:
            columns = [
                packed_columns([kept for _, (_, stats) in listed[start:end] for kept in stats]) for start, end in zip([0, *ends], ends)
            ]
        except OverflowError:  # a stat that does not pack
            columns = []
        if not columns or not all(self._settled(numbers) for numbers, _ in columns):
            forget(self._cache)
            return
        digests = [_stats_digest(numbers, inodes) for numbers, inodes in columns]
        store = Store(self._cache, lambda: RUN_STORE)
        store.assign(
            dict(
                run=run_digest(words),
                report=report,
                status=status,
                real=[[path, target] for path, target in self._real.items()],
                absent=sorted(self._absent),
                present=sorted(self._present),
                owners=[[folder, *owner] for folder, owner in self._owners.items()],
                folders=[[folder, names] for folder, (names, _) in listed],
                chunks=[[end, digest] for end, digest in zip(ends, digests)],
            )
        )
        _write(self._cache, store)


def _write(result_cache: ResultCache, store: Store) -> None:
    """Write the store in the cache's folder now."""
    key, descriptor = result_cache.key, result_cache.open_folder()
    if key is None or descriptor is None:
        return
    try:
        store.write(descriptor, key)
    finally:
        os.close(descriptor)


def forget(result_cache: ResultCache) -> None:
    """Remove the report left to give again from the cache's folder: it no longer holds."""
    descriptor = result_cache.open_folder()
    if descriptor is not None:
        remove(descriptor, RUN_STORE)
        os.close(descriptor)

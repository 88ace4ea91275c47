"""The result cache: one file per project in `.replaylint_cache/`, keyed by content.

An entry holds a file's findings and notes under the SHA-256 of its bytes, the configuration's
fingerprint and replaylint's version, plus the hashes of the other files its result read (a
`--config` YAML, the project's pins). Files with findings are cached too. Files the prefilter
rejects are remembered by their size and time only: a stat decides them in a warm run. And the
folders walked are remembered with their files (`discovery.Snapshot`): a warm run stats them
instead of walking the tree and asking git again.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Callable

from . import __version__

CACHE_DIR = ".replaylint_cache"
_FORMAT = 3


@dataclass
class Entry:
    digest: str
    findings: list
    notes: list[str]
    kind: str | None
    dependencies: dict[str, str] = field(default_factory=dict)
    spelled: str = ""  # the path as the run that stored it named the file: its findings name it so


def digest(data: bytes) -> str:
    import hashlib  # here: a warm run that reads no file never loads OpenSSL (4 ms)

    return hashlib.sha256(data).hexdigest()


def file_digest(path: str) -> str | None:
    try:
        with open(path, "rb") as handle:
            return digest(handle.read())
    except OSError:
        return None


class _Store:
    """One pickled dict in the cache folder, loaded on first use, written atomically."""

    def __init__(self, directory: str, name: Callable[[], str]) -> None:
        self.directory = directory
        self._name = name
        self._data: dict | None = None
        self.dirty = False

    @property
    def path(self) -> str:
        return os.path.join(self.directory, self._name())

    @property
    def data(self) -> dict:
        if self._data is None:
            self._data = self._load()
        return self._data

    def _load(self) -> dict:
        import pickle

        try:
            with open(self.path, "rb") as handle:
                loaded = pickle.load(handle)
        except (OSError, pickle.UnpicklingError, EOFError, AttributeError, ImportError, ValueError, TypeError):
            return {}
        return loaded if isinstance(loaded, dict) else {}

    def save(self) -> None:
        if not self.dirty:
            return
        import pickle
        import tempfile

        try:
            os.makedirs(self.directory, exist_ok=True)
            ignore = os.path.join(self.directory, ".gitignore")
            if not os.path.exists(ignore):
                with open(ignore, "w", encoding="utf-8") as handle:
                    handle.write("# Created by replaylint\n*\n")
            handle_fd, temporary = tempfile.mkstemp(prefix=".store-", dir=self.directory)
            with os.fdopen(handle_fd, "wb") as stream:
                pickle.dump(self.data, stream, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(temporary, self.path)
        except OSError:
            pass  # a cache that cannot be written is only slower


class ResultCache:
    """Results of the files the prefilter let through, by content; and the files it turned away,
    by size and modification time (their verdict depends only on replaylint's version, and
    comparing a stat is cheaper than reading them again)."""

    def __init__(self, directory: str, fingerprint: str | Callable[[], str]) -> None:
        self.directory = directory
        self._prefix = os.getcwd().rstrip("/") + "/"
        self._fingerprint = fingerprint
        self._results = _Store(directory, self._results_name)
        self._clean = _Store(directory, lambda: f"clean-{__version__}-{_FORMAT}.pickle")
        self._trees = _Store(directory, lambda: f"trees-{__version__}-{_FORMAT}.pickle")

    def _results_name(self) -> str:
        """One file per configuration: its key needs the rule table, so it waits for the first
        file that gets past the prefilter."""
        fingerprint = self._fingerprint() if callable(self._fingerprint) else self._fingerprint
        return f"results-{digest(f'{__version__}{_FORMAT}{fingerprint}'.encode())[:16]}.pickle"

    @property
    def path(self) -> str:
        return self._results.path

    @property
    def entries(self) -> dict[str, Entry]:
        return self._results.data

    def lookup(self, path: str, content_digest: str) -> Entry | None:
        """The cached result of `path` when neither it nor anything it read has changed."""
        entry = self.entries.get(self._key(path))
        if entry is None or entry.digest != content_digest or entry.spelled != path:
            return None
        for dependency, expected in entry.dependencies.items():
            if file_digest(dependency) != expected:
                return None
        return entry

    def store(self, path: str, content_digest: str, findings: list, notes: list[str], kind: str | None, dependencies: list[str]) -> None:
        hashes = {}
        for dependency in dependencies:
            hashed = file_digest(dependency)
            if hashed is not None:
                hashes[os.path.abspath(dependency)] = hashed
        self.entries[self._key(path)] = Entry(content_digest, findings, notes, kind, hashes, spelled=path)
        self._results.dirty = True

    def _key(self, path: str) -> str:
        """`os.path.abspath(path)`, without a getcwd and a normpath per file for the normalised
        paths discovery gives."""
        if os.sep == "/" and path and path[-1] not in "/." and "./" not in path and "//" not in path:
            return path if path[0] == "/" else self._prefix + path  # no `.` or `..` part, no doubled or trailing slash
        return os.path.abspath(path)

    @property
    def snapshots(self) -> _Remembered:
        """The files of the folders walked before (`discovery.Snapshot`, by folder)."""
        return _Remembered(self._trees)

    def remembers_files(self) -> bool:
        """Whether an earlier run of this version remembered files the prefilter turned away."""
        return bool(self._clean.data)

    def is_clean(self, path: str, stat: tuple[int, int]) -> bool:
        return self._clean.data.get(self._key(path)) == stat

    def still_clean(self, paths: list[str]) -> list[bool]:
        """`is_clean` of each path with its current stat, in one loop: a warm run asks it of every
        file of the tree, and a path the prefilter never turned away costs no stat. The key is
        `_key`'s for the normalised paths discovery gives; another spelling misses here and is
        asked again through `is_clean`."""
        clean, prefix, stat, key = self._clean.data, self._prefix, os.stat, (None if os.sep == "/" else self._key)
        answers: list[bool] = []
        answer = answers.append
        for path in paths:
            expected = clean.get(key(path) if key else path if path[:1] == "/" else prefix + path)
            if expected is None:
                answer(False)
                continue
            try:
                status = stat(path)
            except OSError:
                answer(False)
                continue
            answer(status.st_mtime_ns == expected[1] and status.st_size == expected[0])
        return answers

    def mark_clean(self, path: str, stat: tuple[int, int]) -> None:
        key = self._key(path)
        if self._clean.data.get(key) != stat:
            self._clean.data[key] = stat
            self._clean.dirty = True

    def save(self) -> None:
        self._results.save()
        self._clean.save()
        self._trees.save()


class _Remembered(dict):
    """A store's dict as discovery reads and writes it: a write marks the store for saving."""

    def __init__(self, store: _Store) -> None:
        super().__init__()
        self._store = store

    def get(self, key, default=None):  # type: ignore[override]
        return self._store.data.get(key, default)

    def __setitem__(self, key, value) -> None:
        self._store.data[key] = value
        self._store.dirty = True


def default_directory(root: str) -> str:
    return os.path.join(root, CACHE_DIR)


def remove_cache(directory: str | None) -> str | None:
    import shutil

    target = directory or CACHE_DIR
    if not os.path.isdir(target):
        return None
    shutil.rmtree(target)
    return target

"""Which cache folder is this user's, and which store in it is the latest: both decided by what
lives outside the tree, next to the key (`secret`).

A cache folder may come with the tree (committed, or in an archive). The folder replaylint uses
holds a marker, `.owner`: the keyed BLAKE2b of the folder's device and inode. A folder the tree
brings is another folder (a clone, an unpacked archive), so its marker does not verify, and
nothing in it is read or written: the run goes on without the cache and says so. A folder
without a valid marker is taken only while it holds no store (a new folder, or one emptied).

A store is signed with its generation: a counter per folder and store, kept next to the key
and raised with every write, so an older store put back (a backup restored, a copy someone who
could write the folder kept) no longer verifies.
"""

from __future__ import annotations

import os

from .folder import Unusable, open_folder, read, replace

MARKER = ".owner"
GENERATIONS = "generations"  # the key folder's subfolder of counters
STORE_PREFIXES = ("results-", "clean-", "trees-", "clients-", "run-")
SERVING = "serving"  # a marker, trusted for nothing: it only makes a pre-commit run read more


def blake2b():
    try:
        from _blake2 import blake2b  # what hashlib's blake2b is, without loading OpenSSL (4 ms)
    except ImportError:  # pragma: no cover
        from hashlib import blake2b
    return blake2b


def _keyed(key: bytes, text: str, person: bytes) -> bytes:
    return blake2b()(text.encode("utf-8", "surrogateescape"), key=key, digest_size=32, person=person).hexdigest().encode()


def identity(descriptor: int) -> str:
    """What tells this folder from a copy of it: its device and inode."""
    status = os.fstat(descriptor)
    return f"{status.st_dev}:{status.st_ino}"


def claim(descriptor: int, key: bytes) -> bool:
    """Whether the folder is this user's cache folder: its marker verifies, or it holds no store
    and is marked now."""
    from _operator import _compare_digest as same

    expected = _keyed(key, identity(descriptor), b"replaylint-owner")
    found = read(descriptor, MARKER, len(expected))
    if found is not None and same(found[0], expected):
        return True
    try:
        if any(name.startswith(STORE_PREFIXES) for name in os.listdir(descriptor)):
            return False
        replace(descriptor, MARKER, expected, mode=0o600)
    except OSError:
        return False
    return True


class Generations:
    """The generation of each store of one cache folder, kept in the key's folder `place`."""

    def __init__(self, place: str, key: bytes, folder_identity: str) -> None:
        self._place = os.path.join(place, GENERATIONS)
        self._key = key
        self._folder = folder_identity
        self._known: dict[str, int] = {}

    def _file(self, store: str) -> str:
        return _keyed(self._key, f"{self._folder}/{store}", b"replaylint-gen").decode()[:32]

    def current(self, store: str) -> int:
        """The generation the store was last written with (0 before its first write)."""
        if store not in self._known:
            self._known[store] = self._read(store)
        return self._known[store]

    def _read(self, store: str) -> int:
        descriptor = self._open(create=False)
        if descriptor is None:
            return 0
        try:
            found = read(descriptor, self._file(store), 20)
        finally:
            os.close(descriptor)
        text = found[0] if found is not None else b""
        return int(text) if text.isdigit() else 0

    def advance(self, store: str) -> int | None:
        """The next generation of the store, kept (None when it cannot be: the store is then
        not written)."""
        descriptor = self._open(create=True)
        if descriptor is None:
            return None
        try:
            generation = self._read(store) + 1
            replace(descriptor, self._file(store), str(generation).encode(), mode=0o600)
        except OSError:
            return None
        finally:
            os.close(descriptor)
        self._known[store] = generation
        return generation

    def _open(self, create: bool) -> int | None:
        """The counters' folder: this user's alone, or not used."""
        try:
            descriptor = open_folder(self._place, create=create, mode=0o700)
        except Unusable:
            return None
        if descriptor is not None:
            status = os.fstat(descriptor)
            if status.st_uid != os.geteuid() or status.st_mode & 0o022:
                os.close(descriptor)
                return None
        return descriptor

"""One dict of the result cache, kept as a signed JSON file in the cache folder (`ResultCache`)."""

from __future__ import annotations

import os

from .folder import read, remove, replace
from .ownership import blake2b

TYPE_CHECKING = False  # (`typing` costs a run whose report is given again a tenth of its time: `last_run`)
if TYPE_CHECKING:
    from typing import Any, Callable, Protocol

    class _Cache(Protocol):
        """What a store asks of the cache it belongs to (`cache.ResultCache`)."""

        key: bytes | None
        generations: Any

        def open_folder(self) -> int | None: ...


STORE_BYTES = 256 << 20  # a store of a monorepo of 600,000 files is about 100 MB


def _mac(key: bytes, name: str, generation: int, body: bytes) -> bytes:
    mac = blake2b()(f"{name}:{generation}".encode(), key=key, digest_size=32, person=b"replaylint-cache")
    mac.update(b"\n")
    mac.update(body)
    return mac.hexdigest().encode()


try:
    from _operator import _compare_digest as _same  # hmac.compare_digest, without loading OpenSSL
except ImportError:  # pragma: no cover
    from hmac import compare_digest as _same


def _read_store(descriptor: int, name: str) -> bytes | None:
    """A store's bytes; None when it is absent, not a regular file or unreadable. A store above
    `STORE_BYTES` is removed unread (the folder is this user's: `ownership.claim`)."""
    try:
        status = os.stat(name, dir_fd=descriptor, follow_symlinks=False)
    except OSError:
        return None
    if status.st_size > STORE_BYTES:
        remove(descriptor, name)
        return None
    found = read(descriptor, name, STORE_BYTES)
    return None if found is None else found[0]


class _Decoding:
    """What `json.loads` gives the C scanner of the json package."""

    strict = True
    object_hook = object_pairs_hook = None
    parse_int = int
    parse_float = parse_constant = float  # parse_constant: NaN, Infinity


def _json_value(text: str) -> object:
    """`json.loads(text)` by the C scanner json is built on: importing the json package compiles
    regular expressions (1.5 ms), which a warm run that finds nothing changed need not pay.
    Raises ValueError."""
    try:
        from _json import make_scanner
    except ImportError:  # pragma: no cover - an interpreter without the accelerator
        import json

        return json.loads(text)
    try:
        value, end = make_scanner(_Decoding)(text, 0)
    except StopIteration:
        raise ValueError("no JSON value") from None
    if end != len(text):
        raise ValueError("data after the JSON value")
    return value


def _object(value: object) -> dict | None:
    return value if type(value) is dict else None


def _same_value(data: dict) -> dict:
    return data


class Store:
    """One dict kept as JSON in the cache folder, loaded on first use, written at once. `decode`
    makes the dict of the loaded JSON value (None when it does not have the expected shape),
    `encode` the JSON value of the dict."""

    def __init__(
        self,
        cache: _Cache,
        name: Callable[[], str],
        decode: Callable[[object], dict | None] = _object,
        encode: Callable[[dict], object] = _same_value,
    ) -> None:
        self._cache = cache
        self._name = name
        self._decode = decode
        self._encode = encode
        self._data: dict | None = None
        self.dirty = False

    @property
    def name(self) -> str:
        return self._name()

    @property
    def data(self) -> dict:
        if self._data is None:
            self._data = self._load()
        return self._data

    def assign(self, data: dict) -> None:
        """Give the store `data` instead of what it holds (without reading that)."""
        self._data = data
        self.dirty = True

    def _load(self) -> dict:
        key = self._cache.key
        if key is None:
            return {}
        name = self.name
        descriptor = self._cache.open_folder()
        if descriptor is None:
            return {}
        try:
            found = _read_store(descriptor, name)
        finally:
            os.close(descriptor)
        if found is None:
            return {}
        mac, _, body = found.partition(b"\n")
        if not _same(mac, _mac(key, name, self._cache.generations.current(name), body)):
            return {}
        try:
            loaded = self._decode(_json_value(body.decode()))
        except (ValueError, RecursionError):
            return {}
        return {} if loaded is None else loaded

    def write(self, descriptor: int, key: bytes) -> None:
        import json

        name = self.name
        try:
            body = json.dumps(self._encode(self.data), separators=(",", ":"), check_circular=False).encode()
            generation = self._cache.generations.advance(name)
            if generation is None:
                return  # no place to keep its generation: a store written now could not be read back
            replace(descriptor, name, _mac(key, name, generation, body) + b"\n" + body, mode=0o600)
        except (OSError, TypeError, ValueError):
            return  # a store that cannot be written (a full disk, a folder in its place) is only slower
        self.dirty = False


class Remembered(dict):
    """A store's dict as discovery and the pins read and write it: a write marks the store for
    saving."""

    def __init__(self, store: Store, used: set[str]) -> None:
        super().__init__()
        self._store = store
        self._used = used  # the keys asked for or set (`ResultCache.remembered_used`)

    def get(self, key, default=None):  # type: ignore[override]
        self._used.add(key)
        return self._store.data.get(key, default)

    def __setitem__(self, key, value) -> None:
        self._used.add(key)
        self._store.data[key] = value
        self._store.dirty = True

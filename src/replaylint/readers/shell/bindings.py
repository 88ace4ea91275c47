"""The shell's variables on one run-time path, as a map that copies in constant time.

The interpreter copies its `World` at every branch, pipeline and substitution, and compares the
copies where branches meet. A script's variables grow with its length, so copying or comparing
all of them there made long scripts quadratic (1 MB of CI code: past the 30 s budget). Here
the names are spread over `_BUCKETS` dicts that copies share until one of them writes (the
writer then copies that one bucket): a copy costs a tuple, a write one bucket, and two copies
are compared bucket by bucket, the buckets they still share skipped unread.
"""

from __future__ import annotations

from typing import Iterable, Iterator, Mapping, TypeVar

Value = TypeVar("Value")
_BUCKETS = 64
_EMPTY: dict = {}
_MISSING = object()


class Bindings(Mapping[str, Value]):
    __slots__ = ("_buckets", "_owned")

    def __init__(self, items: Iterable[tuple[str, Value]] = ()) -> None:
        self._buckets: tuple[dict[str, Value], ...] = (_EMPTY,) * _BUCKETS
        self._owned: set[int] = set()  # buckets no copy shares: written in place
        for name, value in items:
            self[name] = value

    def copy(self) -> Bindings[Value]:
        copied: Bindings[Value] = Bindings.__new__(Bindings)
        copied._buckets = self._buckets
        copied._owned = set()
        self._owned = set()  # both now share every bucket
        return copied

    def __getitem__(self, name: str) -> Value:
        return self._buckets[hash(name) % _BUCKETS][name]

    def get(self, name: str, default: object = None) -> Value | None:  # type: ignore[override]
        return self._buckets[hash(name) % _BUCKETS].get(name, default)  # type: ignore[return-value]

    def __contains__(self, name: object) -> bool:
        return name in self._buckets[hash(name) % _BUCKETS]

    def __iter__(self) -> Iterator[str]:
        for bucket in self._buckets:
            yield from bucket

    def __len__(self) -> int:
        return sum(len(bucket) for bucket in self._buckets)

    def __setitem__(self, name: str, value: Value) -> None:
        self._writable(hash(name) % _BUCKETS)[name] = value

    def pop(self, name: str, default: object = None) -> Value | None:
        index = hash(name) % _BUCKETS
        if name not in self._buckets[index]:
            return default  # type: ignore[return-value]
        return self._writable(index).pop(name)

    def _writable(self, index: int) -> dict[str, Value]:
        if index not in self._owned:
            buckets = list(self._buckets)
            buckets[index] = dict(buckets[index])
            self._buckets = tuple(buckets)
            self._owned.add(index)
        return self._buckets[index]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Bindings):
            return NotImplemented
        return self._buckets is other._buckets or all(
            mine is theirs or mine == theirs for mine, theirs in zip(self._buckets, other._buckets)
        )

    __hash__ = None  # type: ignore[assignment]

    def differing(self, other: Bindings[Value]) -> list[str]:
        """The names bound differently here and in `other` (or in one of them only), read in
        the buckets the two no longer share."""
        names: list[str] = []
        for mine, theirs in zip(self._buckets, other._buckets):
            if mine is theirs:
                continue
            names += [name for name in mine if theirs.get(name, _MISSING) != mine[name]]
            names += [name for name in theirs if name not in mine]
        return names

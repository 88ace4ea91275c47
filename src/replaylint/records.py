"""`record`: a dataclass whose `__repr__` is one function shared by every record.

Python before 3.13 compiles each method `dataclass` generates with its own `exec` (about 0.6
million instructions each); the `__repr__`s of the 60 records a cold scan makes before its reader
forks cost it 40 million of them. The shared one gives the same text: the class's qualified name
and each field shown by `repr` (`field(repr=False)` leaves one out), `...` for a record inside itself.
"""

from __future__ import annotations

import reprlib
from dataclasses import dataclass, fields
from typing import Any, Callable, TypeVar

try:
    from typing import dataclass_transform
except ImportError:  # Python 3.10: type checkers read the decorator through typing_extensions' stub

    def dataclass_transform(**_: Any) -> Callable[[Any], Any]:
        return lambda decorated: decorated


_Class = TypeVar("_Class", bound=type)


@dataclass_transform(eq_default=True, order_default=False, kw_only_default=False, frozen_default=False)
def record(cls: _Class | None = None, /, **options: Any) -> Any:
    """`@dataclass(**options)` with the shared `__repr__` (a class's own `__repr__` is kept)."""

    def make(cls: _Class) -> _Class:
        made = dataclass(cls, repr=False, **options)
        if "__repr__" not in cls.__dict__:
            made.__repr__ = fields_repr  # type: ignore[assignment]
        return made

    return make if cls is None else make(cls)


@reprlib.recursive_repr()
def fields_repr(self: Any) -> str:
    shown = ", ".join(f"{each.name}={getattr(self, each.name)!r}" for each in fields(self) if each.repr)
    return f"{self.__class__.__qualname__}({shown})"

"""`record`: a dataclass whose `__repr__`, `__eq__`, `__hash__` and order (`order=True`) are
functions shared by every record.

Python before 3.13 compiles each method `dataclass` generates with its own `exec` (about 0.6
million instructions each); the `__repr__`s of the 60 records a cold scan makes before its reader
forks cost it 40 million of them, their `__eq__`s, `__hash__`s and order 55 million more. The
shared ones behave as the generated ones: `__repr__` gives the class's qualified name and each
field shown by `repr` (`field(repr=False)` leaves one out), `...` for a record inside itself;
`__eq__` and `__lt__`... compare the tuples of the compared fields of two instances of the same
class (NotImplemented for another class), `__hash__` hashes the tuple of the hashed fields, and
the class's `__hash__` is added, set to None or kept where `dataclass`'s table says.
"""

from __future__ import annotations

import inspect
import operator
import reprlib
from dataclasses import MISSING, FrozenInstanceError, dataclass, fields
from typing import Any, Callable, TypeVar

from .init_code import install_init, shareable

try:
    from typing import dataclass_transform
except ImportError:  # Python 3.10: type checkers read the decorator through typing_extensions' stub

    def dataclass_transform(**_: Any) -> Callable[[Any], Any]:
        return lambda decorated: decorated


_Class = TypeVar("_Class", bound=type)


@dataclass_transform(eq_default=True, order_default=False, kw_only_default=False, frozen_default=False)
def record(cls: _Class | None = None, /, **options: Any) -> Any:
    """`@dataclass(**options)` with the shared `__repr__`, `__eq__` and `__hash__` (a class's own
    methods are kept)."""

    def make(cls: _Class) -> _Class:
        if not options.get("eq", True) or options.get("slots"):
            made = dataclass(cls, repr=False, **options)  # (no `__eq__` to share, or a new class)
        elif (options.get("unsafe_hash") and _has_explicit_hash(cls)) or (options.get("order") and _ORDER.keys() & cls.__dict__.keys()):
            made = dataclass(cls, repr=False, **options)  # (raises `dataclass`'s TypeError)
        else:
            explicit_hash = _has_explicit_hash(cls)
            made = _with_shared_init(cls, **{**options, "eq": False, "unsafe_hash": False, "order": False})
            _share_eq_and_hash(made, hashed=options.get("unsafe_hash") or options.get("frozen"), explicit_hash=explicit_hash)
            for name, method in _ORDER.items() if options.get("order") else ():
                setattr(made, name, method)
        if "__repr__" not in cls.__dict__:
            made.__repr__ = fields_repr  # type: ignore[assignment]
        return made

    return make if cls is None else make(cls)


def _with_shared_init(cls: _Class, **options: Any) -> _Class:
    """`dataclass(cls, repr=False, **options)` with an `__init__` whose code is shared
    (`init_code`), and the class's doc as `dataclass` writes it from that `__init__`; a frozen
    class's `__setattr__` and `__delattr__` are closures (`_frozen_methods`) when it has no
    dataclass base (whose frozenness `dataclass` checks)."""
    frozen = options.get("frozen", False)
    frozen_here = frozen and not any(hasattr(base, "__dataclass_fields__") for base in cls.__mro__[1:])
    if frozen_here and {"__setattr__", "__delattr__"} & cls.__dict__.keys():
        frozen_here = False  # (`dataclass` raises its TypeError)
    init_here = options.get("init", True) and shareable(cls)
    undocumented = init_here and not cls.__doc__
    if undocumented:
        cls.__doc__ = cls.__name__  # (`dataclass` would read the signature of the `__init__` inherited)
    made = dataclass(
        cls, repr=False, **{**options, "init": options.get("init", True) and not init_here, "frozen": frozen and not frozen_here}
    )
    if frozen_here:
        made.__dataclass_params__.frozen = True  # type: ignore[attr-defined]
        made.__setattr__, made.__delattr__ = _frozen_methods(made)  # type: ignore[method-assign]
    if init_here:
        install_init(made, frozen=frozen)
    if undocumented:
        made.__doc__ = _SignatureDoc()  # type: ignore[assignment]
    return made


def _frozen_methods(cls: type) -> tuple[Callable[[Any, str, Any], None], Callable[[Any, str], None]]:
    """The `__setattr__` and `__delattr__` `dataclass(frozen=True)` writes."""
    names = tuple(each.name for each in fields(cls))

    def __setattr__(self: Any, name: str, value: Any) -> None:
        if type(self) is cls or name in names:
            raise FrozenInstanceError(f"cannot assign to field {name!r}")
        super(cls, self).__setattr__(name, value)

    def __delattr__(self: Any, name: str) -> None:
        if type(self) is cls or name in names:
            raise FrozenInstanceError(f"cannot delete field {name!r}")
        super(cls, self).__delattr__(name)

    for method in (__setattr__, __delattr__):
        method.__qualname__ = f"{cls.__qualname__}.{method.__name__}"
        method.__module__ = cls.__module__
    return __setattr__, __delattr__


class _SignatureDoc:
    """The doc `dataclass` gives a class without one, its name and signature, written when first
    read (few are: the signatures of the records imported before the fork cost 6 million
    instructions)."""

    def __get__(self, instance: Any, owner: type) -> str:
        try:
            text = owner.__name__ + str(inspect.signature(owner)).replace(" -> None", "")
        except (TypeError, ValueError):
            text = owner.__name__
        owner.__doc__ = text
        return text


def _has_explicit_hash(cls: type) -> bool:
    """As `dataclass` reads it: a `__hash__` in the class's body (not the None that Python sets
    beside an `__eq__` written there)."""
    own = cls.__dict__.get("__hash__", MISSING)
    return not (own is MISSING or (own is None and "__eq__" in cls.__dict__))


def _share_eq_and_hash(cls: type, hashed: bool, explicit_hash: bool) -> None:
    if "__eq__" not in cls.__dict__:
        cls.__eq__ = fields_eq  # type: ignore[assignment]
    cls.__record_compared__ = _tuple_of([each.name for each in fields(cls) if each.compare])  # type: ignore[attr-defined]
    if explicit_hash:
        return
    if hashed:
        cls.__record_hashed__ = _tuple_of(  # type: ignore[attr-defined]
            [each.name for each in fields(cls) if (each.compare if each.hash is None else each.hash)]
        )
        cls.__hash__ = fields_hash  # type: ignore[assignment]
    else:
        cls.__hash__ = None  # type: ignore[assignment]


def _tuple_of(names: list[str]) -> Callable[[Any], tuple]:
    """The tuple of an instance's fields `names` (`attrgetter` gives one value alone for one name)."""
    if len(names) > 1:
        return operator.attrgetter(*names)
    if names:
        (name,) = names
        return lambda instance: (getattr(instance, name),)
    return lambda instance: ()


def fields_eq(self: Any, other: Any) -> Any:
    if other.__class__ is self.__class__:
        compared = self.__class__.__record_compared__
        return compared(self) == compared(other)
    return NotImplemented


def fields_hash(self: Any) -> int:
    return hash(self.__class__.__record_hashed__(self))


def _ordering(compare: Callable[[tuple, tuple], bool]) -> Callable[[Any, Any], Any]:
    def ordered(self: Any, other: Any) -> Any:
        if other.__class__ is self.__class__:
            compared = self.__class__.__record_compared__
            return compare(compared(self), compared(other))
        return NotImplemented

    return ordered


_ORDER = {
    "__lt__": _ordering(operator.lt),
    "__le__": _ordering(operator.le),
    "__gt__": _ordering(operator.gt),
    "__ge__": _ordering(operator.ge),
}


@reprlib.recursive_repr()
def fields_repr(self: Any) -> str:
    shown = ", ".join(f"{each.name}={getattr(self, each.name)!r}" for each in fields(self) if each.repr)
    return f"{self.__class__.__qualname__}({shown})"

"""A record's `__init__`, the one `dataclass` writes, without compiling one for each class.

`dataclass` compiles each class's `__init__` from source (an `exec`: about 0.7 million
instructions). Two records whose fields are set in the same way in the same order (a parameter,
keyword-only or not, with a factory or not; a factory's value alone), both frozen or not, with a
`__post_init__` or not, have the same code but for its names: the code is compiled once for such
a shape, with placeholder names, and each class gets a copy with its own (`CodeType.replace`).
Defaults are the function's (as `dataclass`'s are), a factory and `object.__setattr__` are in
its closure: the same signature, annotations, errors and behaviour.
"""

from __future__ import annotations

import dataclasses
import sys
import types
from dataclasses import MISSING, Field
from typing import Any

_SELF = "__record_self__"
_HAS_FACTORY = "__record_has_factory__"
_SETATTR = "__record_setattr__"
_INITVAR = getattr(dataclasses, "_FIELD_INITVAR", None)
_HAS_DEFAULT_FACTORY = getattr(dataclasses, "_HAS_DEFAULT_FACTORY", None)

_Shape = tuple  # (frozen, has __post_init__, ((a parameter, keyword-only, has a factory), ...))
_templates: dict[_Shape, types.CodeType] = {}


def shareable(cls: type) -> bool:
    """Whether `install_init` can write the class's `__init__` (else `dataclass` does): not for
    a class with its own, nor one with an `InitVar` or a field named as a placeholder."""
    if _INITVAR is None or _HAS_DEFAULT_FACTORY is None or "__init__" in cls.__dict__:
        return False
    for each in cls.__mro__:
        for name, annotation in each.__dict__.get("__annotations__", {}).items():
            if name.startswith("__record_") or "InitVar" in str(annotation):
                return False
    return True


def install_init(cls: type, frozen: bool) -> None:
    """Sets `cls.__init__` as `dataclass(init=True)` would have, once `dataclass(init=False)`
    made the class (`shareable` said it can)."""
    own = dataclasses.fields(cls)
    parameters = [each for each in own if each.init and not each.kw_only] + [each for each in own if each.init and each.kw_only]
    _check_default_order(parameters)
    written = [each for each in own if each.init or each.default_factory is not MISSING]
    shape = (
        frozen,
        hasattr(cls, "__post_init__"),
        tuple((each.init, each.kw_only, each.default_factory is not MISSING) for each in written),
    )
    self_name = "__dataclass_self__" if any(each.name == "self" for each in own) else "self"
    code = _named(_template(shape), [each.name for each in written], self_name, f"{cls.__qualname__}.__init__")
    init = types.FunctionType(
        code,
        getattr(sys.modules.get(cls.__module__), "__dict__", {}),
        "__init__",
        tuple(_default(each) for each in parameters if not each.kw_only and _has_default(each)) or None,
        _closure(code, written),
    )
    init.__kwdefaults__ = {each.name: _default(each) for each in parameters if each.kw_only and _has_default(each)} or None
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__annotations__ = {**{each.name: each.type for each in parameters}, "return": None}
    cls.__init__ = init  # type: ignore[misc]


def _has_default(each: Field) -> bool:
    return each.default is not MISSING or each.default_factory is not MISSING


def _default(each: Field) -> Any:
    return _HAS_DEFAULT_FACTORY if each.default_factory is not MISSING else each.default


def _check_default_order(parameters: list[Field]) -> None:
    """`dataclass`'s own check of the parameters that are not keyword-only."""
    seen_default = False
    for each in parameters:
        if each.kw_only:
            continue
        if _has_default(each):
            seen_default = True
        elif seen_default:
            raise TypeError(f"non-default argument {each.name!r} follows default argument")


def _closure(code: types.CodeType, written: list[Field]) -> tuple[types.CellType, ...]:
    values = {_HAS_FACTORY: _HAS_DEFAULT_FACTORY, _SETATTR: object.__setattr__}
    values.update(
        (f"__record_default_{index}__", each.default_factory) for index, each in enumerate(written) if each.default_factory is not MISSING
    )
    return tuple(types.CellType(values[name]) for name in code.co_freevars)


def _named(template: types.CodeType, names: list[str], self_name: str, qualified: str) -> types.CodeType:
    """The template's code with the name of the field written `index`-th where it has
    `__record_field_{index}__` (a parameter, an attribute, a frozen record's name constant)."""
    renamed = {f"__record_field_{index}__": name for index, name in enumerate(names)}
    renamed[_SELF] = self_name
    changes: dict[str, Any] = {
        "co_varnames": tuple(renamed.get(name, name) for name in template.co_varnames),
        "co_names": tuple(renamed.get(name, name) for name in template.co_names),
        "co_consts": tuple(renamed.get(const, const) if isinstance(const, str) else const for const in template.co_consts),
    }
    if sys.version_info >= (3, 11):
        changes["co_qualname"] = qualified
    return template.replace(**changes)


def _template(shape: _Shape) -> types.CodeType:
    if shape not in _templates:
        _templates[shape] = _compiled(shape)
    return _templates[shape]


def _compiled(shape: _Shape) -> types.CodeType:
    """`dataclass`'s `__init__` for fields of this shape, named `__record_field_{index}__`."""
    frozen, post_init, kinds = shape
    positional, keyword, body = [], [], []
    for index, (parameter, kw_only, has_factory) in enumerate(kinds):
        name, factory = f"__record_field_{index}__", f"__record_default_{index}__"
        if parameter:
            (keyword if kw_only else positional).append(name)
            value = f"{factory}() if {name} is {_HAS_FACTORY} else {name}" if has_factory else name
        else:
            value = f"{factory}()"
        body.append(f"{_SETATTR}({_SELF}, {name!r}, {value})" if frozen else f"{_SELF}.{name} = {value}")
    if post_init:
        body.append(f"{_SELF}.__post_init__()")
    parameters = ", ".join([_SELF, *positional, *(["*", *keyword] if keyword else [])])
    closure = [_HAS_FACTORY, _SETATTR] + [f"__record_default_{index}__" for index, kind in enumerate(kinds) if kind[2]]
    lines = "\n".join(f"        {line}" for line in body or ["pass"])
    namespace: dict[str, Any] = {}
    exec(f"def __make__({', '.join(closure)}):\n    def __init__({parameters}):\n{lines}\n    return __init__\n", {}, namespace)
    (code,) = [const for const in namespace["__make__"].__code__.co_consts if isinstance(const, types.CodeType)]
    return code

"""A record's fields as a dict by its own method, with the method's options: pydantic's
`model_dump(exclude_none=True)` (and v1's `.dict(...)`) leaves out the fields that hold None,
`include=` and `exclude=` keep or drop the fields they name. An option that depends on what the
record was built with or renames the keys (`exclude_unset`, `exclude_defaults`, `by_alias`), or
one not read here, leaves the dict unknown: any key may be gone, the mask's own among them."""

from __future__ import annotations

import ast
from dataclasses import replace

from ....model import UNKNOWN
from .facts import Kwargs, Val
from .frames import Evaluates, Frame

_PYDANTIC = ("model_dump", "dict")
_FORM_ONLY = ("mode", "warnings", "round_trip", "serialize_as_any", "context", "fallback")  # values' form, never the keys
_SWITCHES = ("exclude_none", "exclude_unset", "exclude_defaults", "by_alias", "exclude_computed_fields")


def with_options(reader: Evaluates, dumped: Val, method: str, node: ast.Call, frame: Frame) -> Val:
    """`dumped` (the record's fields as keyword arguments) as the dump call's options leave it."""
    fields = dumped.kwargs
    if fields is None or not (node.args or node.keywords):
        return dumped
    fields = fields.copy()
    for keyword in node.keywords if method in _PYDANTIC and not node.args else ():
        if keyword.arg in _FORM_ONLY:
            continue
        given = reader.evaluate(keyword.value, frame).value
        if keyword.arg in _SWITCHES and given in (False, None):
            continue
        if keyword.arg == "exclude_none" and given is True:
            fields = _without_none(fields)
        elif keyword.arg in ("include", "exclude") and (named := _names(reader, keyword.value, frame)) is not None:
            keep = (lambda name: name in named) if keyword.arg == "include" else (lambda name: name not in named)
            fields = fields.rebuilt({name: entry for name, entry in fields.entries.items() if keep(name)})
        else:
            return _unknown(dumped, fields, f"`{frame.module.text(keyword)}` of `{method}()`")
    if node.args or (node.keywords and method not in _PYDANTIC):
        return _unknown(dumped, fields, f"the arguments of `{method}()`")
    return replace(dumped, kwargs=fields)


def _unknown(dumped: Val, fields: Kwargs, reason: str) -> Val:
    """No field is known to be there (any may be dropped), and what is there is not known."""
    opened = fields.rebuilt({})
    opened.reasons.append(reason)
    return replace(dumped, kwargs=opened)


def _without_none(fields: Kwargs) -> Kwargs:
    """The fields whose value is not None; one None only on some paths is present, its value unknown."""
    kept = {}
    for name, entry in fields.entries.items():
        if entry.setting.value is not None:
            kept[name] = entry
        elif entry.guards or entry.otherwise is not None:
            kept[name] = replace(entry, setting=replace(entry.setting, value=UNKNOWN, choices=()), otherwise=None)
    return fields.rebuilt(kept)


def _names(reader: Evaluates, node: ast.expr, frame: Frame) -> set[str] | None:
    """The field names a literal `include=`/`exclude=` spells (a set, list or tuple of names, or a
    dict's keys); None when it is not known."""
    read = reader.evaluate(node, frame)
    if read.kwargs is not None:
        return None if read.kwargs.reasons else set(read.kwargs.entries)
    items = read.value
    if isinstance(items, list) and all(isinstance(item, str) for item in items):
        return set(items)
    return None

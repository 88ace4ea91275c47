"""The fields of a record copied with some written (`dataclasses.replace(cfg, k=v)`, a
NamedTuple's `_replace(k=v)`, attrs' `evolve`, pydantic's `model_copy(update={...})`), and the
attributes of an object of a plain class that only binds class attributes (`cfg = InferConfig()`).
`objects` wraps them into its records."""

from __future__ import annotations

import ast
import re

from .dicts import entry, spread
from .facts import Kwargs
from .frames import Evaluates, Frame
from .module import Module


def with_keywords(reader: Evaluates, fields: Kwargs, node: ast.Call, frame: Frame) -> Kwargs:
    """`fields` with those the call's keywords write (`**more` merged)."""
    found = fields.copy()
    for keyword in node.keywords:
        if keyword.arg is None:
            found.merge(spread(reader, keyword.value, frame))
        else:
            found.entries[keyword.arg] = entry(reader, frame, keyword.arg, keyword, keyword.value, None)
    return found


def updated(reader: Evaluates, fields: Kwargs, node: ast.Call, frame: Frame) -> Kwargs | None:
    """`model_copy(update={...})`: `fields` with the mapping's keys (pydantic v2 does not
    validate them, and `deep=` changes no value); None for another keyword."""
    found = fields.copy()
    for keyword in node.keywords:
        if keyword.arg == "update":
            found.merge(spread(reader, keyword.value, frame))
        elif keyword.arg != "deep":
            return None
    return found


def class_attributes(reader: Evaluates, module: Module, cls: ast.ClassDef, node: ast.Call) -> Kwargs | None:
    """The attributes of `cls()` for a class whose body only binds class attributes (no base,
    decorator or method, and no write to them in the module); None for any other class or call."""
    if node.args or node.keywords or cls.bases or cls.keywords or cls.decorator_list or _written(module, cls.name):
        return None
    home = Frame(module, module.tree)
    found = Kwargs()
    for statement in cls.body:
        target = statement.targets[0] if isinstance(statement, ast.Assign) and len(statement.targets) == 1 else None
        target = statement.target if isinstance(statement, ast.AnnAssign) and statement.value is not None else target
        if isinstance(target, ast.Name):
            found.entries[target.id] = entry(reader, home, target.id, statement, statement.value, None)  # type: ignore[union-attr, arg-type]
        elif not (isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant)):  # a docstring
            return None
    return found


def _written(module: Module, name: str) -> bool:
    """`InferConfig.x = ...`, `InferConfig.x[...]`, `setattr(InferConfig, ...)` anywhere in the module."""
    name = re.escape(name)
    return re.search(rf"\b{name}\.\w+\s*(?:[-+*/|]?=(?!=)|\[)|setattr\(\s*{name}\b", module.source.text) is not None

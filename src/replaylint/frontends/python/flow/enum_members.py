"""`Preset[name]`: the member of an `Enum` class of the tree a name picks, read as `Preset.NAME`
is; a name the reader does not know picks none (the value stays unknown)."""

from __future__ import annotations

import ast

from .facts import NOTHING, Val
from .frames import Evaluates, Frame
from .members import class_member, is_enum
from .objects import Class


def enum_member(reader: Evaluates, cls: Class, key: ast.expr, frame: Frame) -> Val | None:
    """The member `cls[key]` names, NOTHING for a name not known; None for a class no `Enum`."""
    if not is_enum(cls.node):
        return None
    name = reader.evaluate(key, frame).value
    if not isinstance(name, str) or name.startswith("_"):
        return NOTHING
    return class_member(reader, cls.module, cls.node, name, exact=True)

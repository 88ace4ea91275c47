"""A session class of the tree that subclasses an HTTP session (`class PolicyClient(httpx.Client)`
whose `__init__` calls `super().__init__(base_url=..., timeout=...)`): inside its methods `self`
is the session, made by that `super().__init__` call (read in `__init__`, its parameters unbound:
a `base_url` a caller passes stays unknown)."""

from __future__ import annotations

import ast

from .frames import Frame
from .module import FUNCTIONS


def self_made(frame: Frame, classes: tuple[str, ...]) -> list[tuple[ast.Call, Frame]]:
    """The one `super().__init__(...)` call that makes `self` a session of `classes`; empty when
    the class is not such a subclass, has no `__init__` of its own, or calls it more than once."""
    cls = frame.cls
    if cls is None or not any(_name(base) in classes for base in cls.bases):
        return []
    init = next((s for s in cls.body if isinstance(s, FUNCTIONS) and s.name == "__init__"), None)
    supers = [node for node in ast.walk(init) if _super_init(node)] if init is not None else []
    if len(supers) != 1:
        return []
    placed = next((p for p in frame.module.statements(init) if any(n is supers[0] for n in ast.walk(p.statement))), None)
    return [(supers[0], Frame(frame.module, init, cls, None, placed))] if placed is not None else []


def _name(node: ast.expr) -> str:
    return node.attr if isinstance(node, ast.Attribute) else node.id if isinstance(node, ast.Name) else ""


def _super_init(node: ast.AST) -> bool:
    func = node.func if isinstance(node, ast.Call) else None
    return (
        isinstance(func, ast.Attribute)
        and func.attr == "__init__"
        and isinstance(func.value, ast.Call)
        and isinstance(func.value.func, ast.Name)
        and func.value.func.id == "super"
    )

"""A class written in a function (DataDreamer's `LLMResource` in `VLLM.model`): its methods read the names
they do not bind from the function around it, as Python's closures do, so each frame of such a method is read
with each frame of that function (`Frame.outer`, where the function first uses the class) in the contexts the tree
gives it."""

from __future__ import annotations

import ast
from dataclasses import replace
from typing import Callable

from .callsites import Call
from .frames import Frame
from .module import FUNCTIONS, Module

_MAX_OUTER = 6  # frames of the enclosing function followed


def enclosing_frames(module: Module, call: Call, frames: list[Frame], outer_frames: Callable[[Call], list[Frame]]) -> list[Frame]:
    """`frames` of a method of a class written in a function, each read with the function's frames as its
    closure (`frames` unchanged for any other call, or where the class's statement is not the function's own)."""
    if call.cls is None or not isinstance(call.scope, FUNCTIONS):
        return frames
    function = module.enclosing(call.scope)
    if function is None or not _directly_in(function, call.cls):
        return frames
    statements = module.statements(function)
    written = next((number for number, p in enumerate(statements) if p.statement is call.cls), None)
    if written is None:
        return frames
    placed = next((p for p in statements[written + 1 :] if _names(p.statement, call.cls.name)), statements[written])
    around = outer_frames(Call(call.node, placed, function, _class_of(module, function)))[:_MAX_OUTER]
    return [replace(frame, outer=outer.reading(placed)) for frame in frames for outer in around] or frames


def _names(statement: ast.stmt, name: str) -> bool:
    """Whether `statement` reads `name` (`LLMResource()`, `proxy_resource_in_background(LLMResource)`): where the
    class is first used, its methods' free names hold what the function bound by then."""
    return any(isinstance(node, ast.Name) and node.id == name for node in ast.walk(statement))


def _directly_in(function: ast.AST, cls: ast.ClassDef) -> bool:
    """Whether `cls` is written in `function`'s own body (under its branches, not in a function nested in it)."""
    waiting = list(function.body)  # type: ignore[attr-defined]
    while waiting:
        statement = waiting.pop()
        if statement is cls:
            return True
        if isinstance(statement, (*FUNCTIONS, ast.ClassDef)):
            continue
        for name in ("body", "orelse", "finalbody", "handlers", "cases"):
            waiting.extend(child for child in getattr(statement, name, ()) if isinstance(child, ast.AST))
    return False


def _class_of(module: Module, function: ast.AST) -> ast.ClassDef | None:
    """The class whose method `function` is (None: a module-level function)."""
    waiting: list[ast.AST] = [module.tree]
    while waiting:
        node = waiting.pop()
        for child in getattr(node, "body", ()):
            if isinstance(child, ast.ClassDef):
                if function in child.body:
                    return child
                waiting.append(child)
    return None

"""`self.x` read in `__init__` after the methods it calls have set it (camel's `VLLMModel`:
`self._url = url`, `if not self._url: self._start_server()`, whose `self._url = "http://..."`
the client then reads): the writes followed in the order `__init__` runs them. Nothing else runs
on the object before its `__init__` ends, so only the calls `__init__` makes can change it; a
method called under a test the reader cannot decide, one that calls others, or `self` handed to
anything leaves the attribute unknown. Also `self.x` in another method that writes it once over
what the construction stored (`refreshed`)."""

from __future__ import annotations

import ast
from dataclasses import replace
from typing import Any, Protocol

from ..asts import walk
from .facts import NOTHING, Val
from .frames import Evaluates, Frame
from .logic import decided
from .module import FUNCTIONS, Placed

# (method, statement, value, tuple element) of each `self.x = value` of the class
Set = tuple[Any, Placed, ast.expr, "int | None"]


class Reader(Evaluates, Protocol):
    tree: Any  # `tree.Tree`: where a method's frame is made


def stepped_in_init(reader: Reader, frame: Frame, sets: list[Set]) -> Val | None:
    """What `self.x` holds where `__init__` reads it, when `__init__` sets it first and then calls
    methods that set it (None: not that shape)."""
    init, at, cls = frame.scope, frame.at, frame.cls
    if not isinstance(init, FUNCTIONS) or init.name != "__init__" or at is None or cls is None:
        return None
    own = [s for s in sets if s[0] is init and s[1].order < at.order]
    if not own or any(s[1].guards or s[3] is not None for s in own):
        return None
    setters = {s[0].name: s for s in sets if s[0] is not init}
    if len(setters) != len(sets) - len(own) - sum(1 for s in sets if s[0] is init and s[1].order >= at.order):
        return None  # a method sets it twice
    if any(s[1].guards or s[3] is not None or s[1].statement not in s[0].body for s in setters.values()):
        return None
    current: Set = own[-1]
    start = current[1].order
    methods = {m.name: m for m in cls.body if isinstance(m, FUNCTIONS)}
    for placed in frame.module.statements(init):
        if not start < placed.order < at.order:
            continue
        own_part = _own_part(placed.statement)
        for name in _self_calls(own_part):
            method = setters[name][0] if name in setters else methods.get(name)
            if method is None or _self_calls_any(method) or _hands_self(method) or _overridden(frame, name):
                return NOTHING  # it may call anything that sets it, or a subclass's runs
            if name not in setters:
                continue
            left = decided(reader, placed.guards, frame.reading(placed))
            if left:
                return NOTHING  # called or not, by a test the reader cannot decide
            if left is not None:
                current = setters[name]
        if _hands_self(own_part):
            return NOTHING
    method, placed, value, _ = current
    home = frame if method is init else reader.tree.frame_of(frame.module, method, cls, frame)
    read = reader.evaluate(value, home.reading(placed))
    if read.kwargs is not None:
        return None  # a mapping its writes after may change: `self_attribute`'s reading
    return read if method is init else replace(read, hops=(*read.hops, frame.module.span(at.statement)))


def refreshed(frame: Frame, sets: list[Set], setters: tuple[str, ...]) -> list[Set]:
    """The writes of `self.x` that decide it where a method (not `__init__`) reads it, when the
    method sets it once in its body after the object's construction set it (xinference's
    `VLLMModel.load()`: `self._model_config = self._sanitize_model_config(self._model_config)`, then
    `AsyncEngineArgs(**self._model_config)`): after that write, the write; in its own value, what
    the construction left (the method's first call). Nothing between may set it again: only the
    construction and this one write do. Any other shape: `sets` as they were."""
    method, at = frame.scope, frame.at
    if not isinstance(method, FUNCTIONS) or method.name in setters or at is None:
        return sets
    own = [s for s in sets if s[0] is method]
    if len(own) != 1 or any(s[0].name not in setters for s in sets if s[0] is not method):
        return sets
    write = own[0][1]
    if write.guards or own[0][3] is not None or write.statement not in method.body:
        return sets
    if write.order < at.order:
        return own
    return [s for s in sets if s[0] is not method] if write.order == at.order else sets


def _own_part(statement: ast.stmt) -> ast.AST:
    """What a statement runs itself: a compound statement's test or iterable, not its body (whose
    statements are placed on their own, under their guards)."""
    if isinstance(statement, (ast.If, ast.While)):
        return statement.test
    if isinstance(statement, (ast.For, ast.AsyncFor)):
        return statement.iter
    if isinstance(statement, (ast.With, ast.AsyncWith)):
        return ast.Tuple([item.context_expr for item in statement.items], ast.Load())
    if isinstance(statement, (ast.Try, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return ast.Pass()
    return statement


def _self_calls(statement: ast.AST) -> list[str]:
    """The methods a statement calls on `self` (`self._start_server()`), in the order written."""
    return [
        node.func.attr
        for node in walk(statement)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Name)
        if node.func.value.id == "self"
    ]


def _overridden(frame: Frame, name: str) -> bool:
    """Whether a subclass in the module defines its own `name`."""
    cls = frame.cls
    return any(
        isinstance(node, ast.ClassDef)
        and any(getattr(base, "id", getattr(base, "attr", None)) == getattr(cls, "name", None) for base in node.bases)
        and any(isinstance(m, FUNCTIONS) and m.name == name for m in node.body)
        for node in frame.module.tree.body
    )


def _self_calls_any(method: ast.AST) -> bool:
    return bool(_self_calls(method))


def _hands_self(statement: ast.AST) -> bool:
    """`self` given to a call as an argument (`register(self)`), which may set anything on it."""
    return any(
        isinstance(node, ast.Call)
        and any(isinstance(a, ast.Name) and a.id == "self" for a in (*node.args, *(k.value for k in node.keywords)))
        for node in walk(statement)
    )

"""An engine a class attribute caches: princeton-pli LongProc's `class _VLLMBackend: llm = None`,
filled on first use by `_VLLMBackend.llm = LLM(...)` under `if _VLLMBackend.llm is None:`, then
`llm = _VLLMBackend.llm` and `llm.chat(...)`. A request sent to the attribute (or to a name bound
to it) reaches the engine its one write stores: a request is never sent to the None it starts as.
Another write, or a class body that binds it to anything but None, leaves the receiver unknown."""

from __future__ import annotations

import ast
from typing import Iterator

from .frames import Evaluates, Frame, reaching
from .module import FUNCTIONS, Module, Placed
from .objects import Class
from .refs import Engine


def cached_engine(reader: Evaluates, receiver: ast.expr, frame: Frame) -> Engine | None:
    """The engine `receiver` (`_VLLMBackend.llm`, or a name bound to it where `frame` reads it) holds."""
    held = _held(receiver, frame)
    if held is None:
        return None
    owner = reader.evaluate(held.value, frame).ref
    if not isinstance(owner, Class) or owner.module is not frame.module or not _starts_empty(owner.node, held.attr):
        return None
    writes = [
        *_writes(frame.module, frame.module.tree, f"{owner.node.name}.{held.attr}"),
        *_writes(frame.module, owner.node, f"cls.{held.attr}"),
    ]
    if len(writes) != 1:
        return None
    scope, placed, value = writes[0]
    at = frame.reading(placed) if scope is frame.scope else Frame(frame.module, scope, None, None, placed)
    made = reader.evaluate(value, at).ref
    return made if isinstance(made, Engine) else None


def _held(receiver: ast.expr, frame: Frame) -> ast.Attribute | None:
    if isinstance(receiver, ast.Name):
        binding = reaching(frame, receiver.id)
        if binding is None or binding.kind != "value" or binding.element is not None:
            return None
        receiver = binding.value  # type: ignore[assignment]
    return receiver if isinstance(receiver, ast.Attribute) and isinstance(receiver.value, ast.Name) else None


def _starts_empty(cls: ast.ClassDef, attr: str) -> bool:
    """Whether the class body binds `attr` to None only (or not at all)."""
    for statement in cls.body:
        targets = (
            statement.targets if isinstance(statement, ast.Assign) else [statement.target] if isinstance(statement, ast.AnnAssign) else []
        )
        if any(isinstance(t, ast.Name) and t.id == attr for t in targets):
            value = statement.value  # type: ignore[union-attr]
            if value is not None and not (isinstance(value, ast.Constant) and value.value is None):
                return False
    return True


def _writes(module: Module, within: ast.AST, target: str) -> Iterator[tuple[ast.AST, Placed, ast.expr]]:
    """(scope, statement, value) of each `target = value` (`Cls.attr`, or `cls.attr` in the class's
    methods) in `within` (the module or the class), but those of None."""
    scopes = (
        [within, *(node for node in ast.walk(within) if isinstance(node, FUNCTIONS))]
        if within is module.tree
        else [node for node in ast.walk(within) if isinstance(node, FUNCTIONS)]
    )
    for scope in scopes:
        for placed in module.statements(scope):
            statement = placed.statement
            if not isinstance(statement, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
                continue
            targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
            if not any(isinstance(t, ast.Attribute) and ast.unparse(t) == target for t in targets):
                continue
            value = statement.value
            if not (isinstance(value, ast.Constant) and value.value is None):
                yield scope, placed, value  # type: ignore[misc]

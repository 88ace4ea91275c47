"""The calls of a module found by the words on their lines (`calls`), each with the statement
and scope it is in: where the value flow looks for engines, requests and call sites."""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import Iterator

from .module import FUNCTIONS, Module, Placed


@dataclass(frozen=True)
class Call:
    """A call of the module with the statement and scope it is in."""

    node: ast.Call
    placed: Placed
    scope: ast.AST
    cls: ast.ClassDef | None


def calls(module: Module, words: tuple[str, ...]) -> list[Call]:
    """The calls on the lines that hold one of `words` (a call's name), each with its statement
    and scope; statements on other lines are not looked into."""
    lines = module.lines_with(words)
    found: list[Call] = []
    pending: list[tuple[ast.AST, ast.ClassDef | None]] = [(module.tree, None)]
    while pending:
        scope, cls = pending.pop()
        for placed in module.statements(scope):
            statement = placed.statement
            if not module.touches(statement, lines):
                continue
            if isinstance(statement, FUNCTIONS):
                pending.append((statement, cls))
            elif isinstance(statement, ast.ClassDef):
                pending.extend((method, statement) for method in statement.body if isinstance(method, FUNCTIONS))
                continue
            found.extend(Call(node, placed, scope, cls) for node in _calls_on(statement, lines, module))
    return found


def _calls_on(statement: ast.stmt, lines: list[int], module: Module) -> Iterator[ast.Call]:
    """The calls of a statement's own expressions that touch `lines` (other subtrees skipped)."""
    stack: list[ast.AST] = [statement]
    while stack:
        node = stack.pop()
        if node is not statement and hasattr(node, "end_lineno") and not module.touches(node, lines):
            continue
        if isinstance(node, ast.Call):
            yield node
        stack.extend(child for child in ast.iter_child_nodes(node) if not isinstance(child, (ast.stmt, ast.Lambda)))

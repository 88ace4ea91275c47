"""The runner variable as the code leaves it before an engine starts: `os.environ[...] = ...`,
`os.environ.setdefault(...)`, `os.putenv(...)`, `os.environ.pop(...)`, `del os.environ[...]`,
in the module's own statements, the caller's before the call that leads to the engine, and
the engine's function before its construction. A write under a branch leaves the value
unknown."""

from __future__ import annotations

import ast

from ....model import UNKNOWN, Setting
from ....vllm.fields import RUNNER_ENV
from .frames import Frame, expressions
from .module import FUNCTIONS, Module, Placed

_CALLS = ("environ.setdefault", "environ.pop", "putenv")


def runner_variable(frame: Frame) -> dict[str, Setting]:
    """The runner variable's setting where `frame` reads (empty: the code does not write it)."""
    module = frame.module
    env: dict[str, Setting] = {}
    if frame.scope is not module.tree:
        _apply(module, module.tree, None, env)  # a function runs after the module's statements
    for scope, placed in frame.sites:
        if scope is not module.tree:
            _apply(module, scope, placed, env)
    if isinstance(frame.scope, FUNCTIONS):
        _apply(module, frame.scope, frame.at, env)
    elif frame.at is not None:
        env.clear()
        _apply(module, module.tree, frame.at, env)
    return env


def _apply(module: Module, scope: ast.AST, until: Placed | None, env: dict[str, Setting]) -> None:
    for placed in module.statements(scope):
        if until is not None and placed.order >= until.order:
            break
        write = _write(module, placed.statement)
        if write is None:
            continue
        kind, value = write
        span = module.span(placed.statement)
        if kind == "remove":
            env.pop(RUNNER_ENV, None)
        elif kind == "default" and RUNNER_ENV in env:
            continue
        else:
            known = value.value if isinstance(value, ast.Constant) and isinstance(value.value, str) and not placed.guards else UNKNOWN
            value_span = module.span(value) if value is not None else None
            env[RUNNER_ENV] = Setting(RUNNER_ENV, known, span, module.text(placed.statement), value_span)


def _write(module: Module, statement: ast.stmt) -> tuple[str, ast.expr | None] | None:
    if isinstance(statement, (ast.Assign, ast.Delete)):
        for target in statement.targets:
            if isinstance(target, ast.Subscript) and _is_environ(module, target.value) and _names_runner(target.slice):
                return ("set", statement.value) if isinstance(statement, ast.Assign) else ("remove", None)
        return None
    for node in expressions(statement):
        if isinstance(node, ast.Call) and node.args and _names_runner(node.args[0]):
            func = module.text(node.func)
            if func.endswith(_CALLS) and ("os" in module.imports or "environ" in module.imports):
                if func.endswith("pop"):
                    return "remove", None
                if len(node.args) > 1:
                    return ("default" if func.endswith("setdefault") else "set"), node.args[1]
    return None


def _is_environ(module: Module, node: ast.expr) -> bool:
    text = module.text(node)
    return text in ("os.environ", "environ")


def _names_runner(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and node.value == RUNNER_ENV

"""What one statement writes into `os.environ` for the runner variable, by its shape:
`os.environ[VAR] = value` (`os.environ.get(VAR, "0")` written back: a default), `del
os.environ[VAR]`, `os.environ.setdefault(VAR, ...)`, `os.environ.pop(VAR)`, and a loop that
copies a mapping in (`for key, value in ENV.items(): os.environ[key] = value`, or `str(value)`)."""

from __future__ import annotations

import ast

from ....vllm.engine_fields import RUNNER_ENV
from .frames import expressions
from .loops import items_pair
from .module import Module

_CALLS = ("environ.setdefault", "environ.pop")


def copied(module: Module, statement: ast.stmt) -> tuple[ast.expr, bool] | None:
    """The mapping a loop copies into the environment (`for k, v in ENV.items(): os.environ[k] = v`),
    and whether it writes each value's text (`= str(v)`)."""
    if not (isinstance(statement, ast.For) and len(statement.body) == 1):
        return None
    pair = items_pair(statement.target, statement.iter)
    if pair is None:
        return None
    mapping, key, value = pair
    body = statement.body[0]
    if not (isinstance(body, ast.Assign) and len(body.targets) == 1 and isinstance(body.targets[0], ast.Subscript)):
        return None
    written = body.targets[0]
    same_key = isinstance(written.slice, ast.Name) and written.slice.id == key
    texts = _text_of(body.value)
    same_value = isinstance(texts or body.value, ast.Name) and (texts or body.value).id == value  # type: ignore[union-attr]
    return (mapping, texts is not None) if is_environ(module, written.value) and same_key and same_value else None


def _text_of(value: ast.expr) -> ast.expr | None:
    """`v` of `str(v)`."""
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "str" and len(value.args) == 1:
        return None if value.keywords else value.args[0]
    return None


def write_of(module: Module, statement: ast.stmt) -> tuple[str, ast.expr | None] | None:
    if isinstance(statement, (ast.Assign, ast.Delete)):
        for target in statement.targets:
            if isinstance(target, ast.Subscript) and is_environ(module, target.value) and names_runner(target.slice):
                if isinstance(statement, ast.Delete):
                    return "remove", None
                kept = _kept_or_default(module, statement.value)
                return ("default", kept) if kept is not None else ("set", statement.value)
        return None
    if not module.touches(statement, module.lines_with(_CALLS)):
        return None  # (the calls' text holds one of `_CALLS`: a large test module's decorators are not walked)
    for node in expressions(statement):
        if isinstance(node, ast.Call) and node.args and names_runner(node.args[0]):
            func = module.text(node.func)
            if func.endswith(_CALLS) and ("os" in module.imports or "environ" in module.imports):
                if func.endswith("pop"):
                    return "remove", None
                if len(node.args) > 1:
                    return ("default" if func.endswith("setdefault") else "set"), node.args[1]
    return None


def _kept_or_default(module: Module, value: ast.expr) -> ast.expr | None:
    """The default of `os.environ.get(VAR, "0")` (or `os.getenv(VAR, "0")`) written back to the
    same variable: the environment's own value when it has one, else the default (as `setdefault`)."""
    if not (isinstance(value, ast.Call) and len(value.args) == 2 and names_runner(value.args[0])):
        return None
    func = value.func
    reads = isinstance(func, ast.Attribute) and (
        (func.attr == "get" and is_environ(module, func.value)) or (func.attr == "getenv" and module.text(func.value) == "os")
    )
    return value.args[1] if reads else None


def is_environ(module: Module, node: ast.expr) -> bool:
    text = module.text(node)
    return text in ("os.environ", "environ")


def names_runner(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and node.value == RUNNER_ENV

"""The statements of a Python scope as the content reader of engine mappings (`mappings`) walks
them: in order with the blocks they sit in, the names bound once to a dict, the calls of a
statement, and the keys a statement writes into a dict (`d["k"] = v`, `.update`, `.pop`,
`.setdefault`)."""

from __future__ import annotations

import ast
from typing import Iterator


def is_dict(node: ast.AST) -> bool:
    return isinstance(node, ast.Dict) or (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "dict")


def scope_statements(body: list[ast.stmt], chain: tuple[int, ...] = ()) -> Iterator[tuple[ast.stmt, tuple[int, ...]]]:
    """The statements of a scope in order, each with the blocks (branches, loops, handlers) it
    sits in, not those of the functions and classes the scope defines."""
    for statement in body:
        yield statement, chain
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        blocks = [getattr(statement, name, None) or [] for name in ("body", "orelse", "finalbody")]
        blocks += [handler.body for handler in getattr(statement, "handlers", None) or []]
        blocks += [case.body for case in getattr(statement, "cases", None) or []]
        for block in blocks:
            yield from scope_statements(block, (*chain, id(block)))


def inner_scopes(body: list[ast.stmt]) -> Iterator[ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef]:
    """Every function and class under `body`, at any depth."""
    for statement, _ in scope_statements(body):
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            yield statement
            yield from inner_scopes(statement.body)


def dict_bindings(statements: list[tuple[ast.stmt, int]]) -> dict[str, tuple[ast.stmt, ast.expr]]:
    """Names bound once in the scope, to a dict literal or `dict(...)` call."""
    counts: dict[str, int] = {}
    found: dict[str, tuple[ast.stmt, ast.expr]] = {}
    for statement, _ in statements:
        targets = (
            statement.targets if isinstance(statement, ast.Assign) else [statement.target] if isinstance(statement, ast.AnnAssign) else []
        )
        for target in targets:
            if isinstance(target, ast.Name):
                counts[target.id] = counts.get(target.id, 0) + 1
                value = statement.value  # type: ignore[union-attr]
                if value is not None and is_dict(value) and len(targets) == 1:
                    found[target.id] = (statement, value)
    return {name: bound for name, bound in found.items() if counts[name] == 1}


def statement_calls(statement: ast.stmt) -> Iterator[ast.Call]:
    """The calls of one statement (not inside the functions, lambdas and classes it defines)."""
    if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return
    stack: list[ast.AST] = [statement]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Call):
            yield node
        for child in ast.iter_child_nodes(node):
            if not isinstance(child, (ast.stmt, ast.Lambda, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                stack.append(child)


def written_names(statement: ast.stmt) -> Iterator[str]:
    """The names a statement writes keys into (`d["k"] = v`, `d.update(...)`...)."""
    targets = statement.targets if isinstance(statement, (ast.Assign, ast.Delete)) else []
    for target in targets:
        if isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name):
            yield target.value.id
    if isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call):
        func = statement.value.func
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.attr in ("update", "pop", "setdefault"):
            yield func.value.id


def subscript_key(target: ast.expr, name: str) -> tuple[bool, str | None]:
    """Whether `target` is `name[...]`, and its key when that is a string literal."""
    if not (isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name) and target.value.id == name):
        return False, None
    key = target.slice
    return True, key.value if isinstance(key, ast.Constant) and isinstance(key.value, str) else None


def written_keys(statement: ast.stmt, name: str) -> Iterator[tuple[str | None, ast.expr | None, ast.AST, str]]:
    """(key, value node, first node of the setting's span, "set", "default" or "remove") of the
    writes of one statement into `name`; a key that is not a string literal is None."""
    if isinstance(statement, (ast.Assign, ast.Delete)):
        for target in statement.targets:
            into, key = subscript_key(target, name)
            if into:
                yield (
                    key,
                    statement.value if isinstance(statement, ast.Assign) else None,
                    statement,
                    "set" if isinstance(statement, ast.Assign) else "remove",
                )
        return
    if not (isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call)):
        return
    call = statement.value
    func = call.func
    if not (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == name):
        return
    if func.attr == "update":
        for argument in call.args:
            if isinstance(argument, ast.Dict) and all(isinstance(k, ast.Constant) and isinstance(k.value, str) for k in argument.keys):
                for key, value in zip(argument.keys, argument.values):
                    yield key.value, value, key, "set"  # type: ignore[union-attr]
            else:
                yield None, None, statement, "set"
        for keyword in call.keywords:
            yield keyword.arg, keyword.value, keyword, "set"
    elif func.attr in ("pop", "setdefault") and call.args:
        first = call.args[0]
        key = first.value if isinstance(first, ast.Constant) and isinstance(first.value, str) else None
        if func.attr == "pop":
            yield key, None, statement, "remove"
        elif len(call.args) > 1:
            yield key, call.args[1], statement, "default"

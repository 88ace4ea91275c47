"""A function that fills a module-level cache once per key and returns the entry
(data-juicer's `get_model`: `if key not in MODEL_ZOO: MODEL_ZOO[key] = key()`, then
`return MODEL_ZOO[key]`): a call of it returns what the fill computes. Read only when the
module writes the cache nowhere else (another writer could have filled the key first)."""

from __future__ import annotations

import ast

from ..asts import walk
from .module import FUNCTIONS, Guard, Module, Placed
from .returns import branches, fallbacks


def returned_paths(module: Module, function: ast.FunctionDef | ast.AsyncFunctionDef) -> list[tuple[Placed, tuple[Guard, ...]]] | None:
    """What a call of the function returns, as `returns.branches`: the statement that fills a
    memoizing function's key (its value), else each `return` with the guards of its path."""
    statements = module.statements(function)
    fill = filled_entry(function, module.tree)
    if fill is not None:
        return [(placed, ()) for placed in statements if placed.statement is fill]
    returns = [placed for placed in statements if isinstance(placed.statement, ast.Return)]
    named = bool(returns) and all(isinstance(placed.statement.value, ast.Name) for placed in returns)  # type: ignore[attr-defined]
    # (a function that returns a class by its name, RLinf's `get_rollout_backend_worker`: its closing `raise` ends the rest)
    found = branches(returns, [placed for placed in statements if isinstance(placed.statement, ast.Raise)], raised_after=named)
    return found if found is not None else fallbacks(function, returns)


def filled_entry(function: ast.FunctionDef | ast.AsyncFunctionDef, tree: ast.Module) -> ast.Assign | None:
    """The statement that fills a memoizing function's cache entry (whose value the function returns), or None."""
    body = [s for s in function.body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]
    if len(body) != 2 or not isinstance(body[0], ast.If) or body[0].orelse or len(body[0].body) != 1:
        return None
    test, fill, back = body[0].test, body[0].body[0], body[1]
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.NotIn)):
        return None
    cache, key = test.comparators[0], ast.dump(test.left)
    if not isinstance(cache, ast.Name) or not _module_dict(tree, cache.id):
        return None
    if not (isinstance(fill, ast.Assign) and len(fill.targets) == 1 and _entry(fill.targets[0], cache.id, key)):
        return None
    if not (isinstance(back, ast.Return) and back.value is not None and _entry(back.value, cache.id, key)):
        return None
    return fill if _only_writer(tree, cache.id, fill) else None


def _entry(node: ast.expr, cache: str, key: str) -> bool:
    return isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id == cache and ast.dump(node.slice) == key


def _module_dict(tree: ast.Module, name: str) -> bool:
    """`CACHE = {}` (or `dict()`) bound once at the module's top level."""
    bound = [
        s
        for s in tree.body
        if isinstance(s, (ast.Assign, ast.AnnAssign)) and name in {t.id for t in _targets(s) if isinstance(t, ast.Name)}
    ]
    if len(bound) != 1 or bound[0].value is None:
        return False
    value = bound[0].value
    empty_call = isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "dict" and not value.args
    return (isinstance(value, ast.Dict) and not value.keys) or (empty_call and not value.keywords)


def _targets(statement: ast.Assign | ast.AnnAssign) -> list[ast.expr]:
    return statement.targets if isinstance(statement, ast.Assign) else [statement.target]


def _only_writer(tree: ast.Module, name: str, fill: ast.Assign) -> bool:
    """No statement but the fill writes into the cache, calls a method on it or binds it in a function."""
    own = {id(node) for node in walk(fill)}
    for node in walk(tree):
        if id(node) in own:
            continue
        if isinstance(node, ast.Subscript) and isinstance(node.ctx, (ast.Store, ast.Del)) and _names(node.value, name):
            return False
        if isinstance(node, ast.Attribute) and _names(node.value, name):
            return False  # `CACHE.update(...)`, `CACHE.setdefault(...)`
        if isinstance(node, FUNCTIONS) and any(isinstance(s, (ast.Global, ast.Nonlocal)) and name in s.names for s in walk(node)):
            return False
    return True


def _names(node: ast.expr, name: str) -> bool:
    return isinstance(node, ast.Name) and node.id == name

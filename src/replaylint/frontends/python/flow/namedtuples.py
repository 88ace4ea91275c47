"""`collections.namedtuple("Spec", ["model", "logprobs_mode"], defaults=[...])` read as the class
it makes: a NamedTuple whose fields take the defaults from the right, each placed where the
default is written."""

from __future__ import annotations

import ast


def named_tuple_class(node: ast.Call) -> ast.ClassDef | None:
    """The class the call makes, as a NamedTuple class statement would write it (None: its
    name or fields are not written out)."""
    if len(node.args) < 2 or not isinstance(node.args[0], ast.Constant) or not isinstance(node.args[0].value, str):
        return None
    names = _field_names(node.args[1])
    if names is None:
        return None
    defaults = next((keyword.value for keyword in node.keywords if keyword.arg == "defaults"), None)
    values: list[ast.expr] = []
    if isinstance(defaults, (ast.List, ast.Tuple)):
        values = list(defaults.elts)
    elif defaults is not None:
        return None
    if len(values) > len(names):
        return None
    padded: list[ast.expr | None] = [None] * (len(names) - len(values)) + values  # type: ignore[list-item]
    body: list[ast.stmt] = []
    for (name, where), value in zip(names, padded):
        field = ast.AnnAssign(ast.Name(name, ast.Store()), ast.Name("object", ast.Load()), value, simple=1)
        body.append(ast.copy_location(field, value if value is not None else where))
    bases: list[ast.expr] = [ast.Name("NamedTuple", ast.Load())]
    return ast.copy_location(ast.ClassDef(node.args[0].value, bases, [], body or [ast.Pass()], []), node)


def _field_names(node: ast.expr) -> list[tuple[str, ast.expr]] | None:
    """`["a", "b"]`, `("a", "b")` or `"a b"` / `"a, b"`."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [(name, node) for name in node.value.replace(",", " ").split()]
    if not isinstance(node, (ast.List, ast.Tuple)):
        return None
    if not all(isinstance(e, ast.Constant) and isinstance(e.value, str) for e in node.elts):
        return None
    return [(e.value, e) for e in node.elts]  # type: ignore[attr-defined]

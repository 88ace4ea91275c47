"""Which constructions of a client's class (`OpenAI(...)`, `httpx.Client(...)`) a client expression
is: written there, returned by a factory of the tree, bound once to its name or `self` attribute,
a parameter every call of its function passes one of, or taken from a list of them (`client_picks`)."""

from __future__ import annotations

import ast

from .bodies import bound_once
from .callsites import calls, keyword
from .client_factories import Made, assigned, decided_binding, factory_made, self_sets, setter_frames, with_bound
from .client_picks import taken_items
from .frames import Frame, parameters
from .module import FUNCTIONS
from .reader import Reader
from .session_subclasses import self_made

# The OpenAI client's copies with other options (`client.with_options(timeout=600)`): same address.
_COPIES = ("with_options", "copy")
_MAX_CALLERS = 3  # functions followed up to the client's construction


def constructions(reader: Reader, node: ast.expr | None, frame: Frame, classes: tuple[str, ...], depth: int = 0) -> Made:
    """The calls of `classes` (`OpenAI(...)`) a client expression is, each with the frame it is
    written in: written there, returned by a function of the tree it calls (`make_client(cfg)`),
    bound once to its name (in the function, else the module; also by a `with`) or `self`
    attribute (in the class), or a parameter that every call of its function in the module
    passes one of those. Empty when any is not known."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _COPIES:
        return constructions(reader, node.func.value, frame, classes, depth)
    if isinstance(node, ast.Call) and is_class(node, classes):
        return [(node, frame)]
    if isinstance(node, (ast.Call, ast.Subscript)):  # `make_client(cfg)`, `policy_client()[0]`
        items = taken_items(reader, node, frame)  # `next(pool)` of `itertools.cycle(CLIENTS)`
        if items is not None:
            each = [constructions(reader, item, where, classes, depth) for item, where in items]
            return [made for found in each for made in found] if all(each) else []
        return factory_made(reader, node, frame, lambda value, inner: constructions(reader, value, inner, classes, depth))
    if isinstance(node, ast.Name) and node.id == "self" and frame.cls is not None:
        return self_made(reader, frame, classes)  # `self.post(...)` in a subclass of the session class
    if isinstance(node, ast.Name):
        if isinstance(frame.scope, FUNCTIONS) and node.id in {a.arg for a in parameters(frame.scope)}:
            return _passed(reader, frame, frame.scope, node.id, classes, depth) if depth < _MAX_CALLERS else []
        value = bound_once(frame, node.id) or with_bound(frame, node.id) or decided_binding(reader, frame, node.id)
        values = [value] if value is not None else []
    elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self" and frame.cls is not None:
        sets = self_sets(frame, node.attr, made_only=True)
        if len(sets) == 1 and isinstance(sets[0][1].statement.value, ast.Call):  # type: ignore[attr-defined]
            method, placed = sets[0]
            value = placed.statement.value  # type: ignore[attr-defined]
            return [
                made
                for where in setter_frames(reader, frame, method, placed)
                for made in constructions(reader, value, where, classes, depth)
            ]
        values = assigned(frame.cls, node.attr)
    else:
        return []
    return (
        constructions(reader, values[0], frame, classes, depth)
        if len(values) == 1 and isinstance(values[0], (ast.Call, ast.Subscript))
        else []
    )


def _passed(
    reader: Reader, frame: Frame, function: ast.FunctionDef | ast.AsyncFunctionDef, name: str, classes: tuple[str, ...], depth: int
) -> list[tuple[ast.Call, Frame]]:
    """What the module's calls of a function pass as its parameter `name`; empty unless the
    function is a module-level one that is only ever called by its name (not handed on)."""
    module = frame.module
    if frame.cls is not None or function not in module.tree.body:
        return []
    sites = [c for c in calls(module, (f"{function.name}(",)) if isinstance(c.node.func, ast.Name) and c.node.func.id == function.name]
    if not sites or module.name_uses(function.name) != len(sites):
        return []
    position = [a.arg for a in parameters(function)].index(name)
    found: list[tuple[ast.Call, Frame]] = []
    for site in sites:
        positional = [] if any(isinstance(a, ast.Starred) for a in site.node.args) else site.node.args
        argument = keyword(site.node, name) or (positional[position] if position < len(positional) else None)
        made = constructions(reader, argument, Frame(module, site.scope, site.cls, None, site.placed), classes, depth + 1)
        if not made:
            return []
        found += made
    return found


def is_class(node: ast.Call, classes: tuple[str, ...]) -> bool:
    func = node.func
    name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
    return name in classes

"""A loop copying a mapping the reader does not know whole into a dict, key by key (a request's
params: `for key, value in params.items(): d[key] = value`, `for key in params: d[key] =
params[key]`), read as `d.update(params)`: any key of `d` may be overwritten, so each is open;
under `if key in NAMES:` of strings spelt out only those keys are (`if key in d:`: all of them).
Another write whose key is not known leaves `d` open to new keys only, as before."""

from __future__ import annotations

import ast
from dataclasses import replace

from .facts import Kwargs, unknown
from .frames import Evaluates, Frame
from .memberships import members_of
from .module import Guard


def overwritten(reader: Evaluates, found: Kwargs, statement: ast.AST, target_is, guards: tuple[Guard, ...], frame: Frame) -> None:
    """Open the keys of `found` the write `statement` (`target[key] = value`, key not known) may
    overwrite (`target_is`: whether a node names the dict written)."""
    key = _written_key(statement, target_is)
    copied = _copied_from(key, statement, guards) if key is not None else None
    if key is None or copied is None:
        return
    names = _restricted_to(reader, key, found, target_is, guards, frame)
    source = reader.evaluate(copied, frame).kwargs
    if source is not None and not source.reasons:  # a mapping known whole: only its keys
        names = set(source.entries) if names is None else names & set(source.entries)
    for name in list(found.entries) if names is None else names:
        held = found.entries.get(name)
        if held is not None:
            found.entries[name] = replace(unknown(held), guards=(), otherwise=None)


def _written_key(statement: ast.AST, target_is) -> ast.Name | None:
    """The name the write's key is read from (`d[key] = value`)."""
    for node in getattr(statement, "targets", ()):
        if isinstance(node, ast.Subscript) and target_is(node.value) and isinstance(node.slice, ast.Name):
            return node.slice
    return None


def _copied_from(key: ast.Name, statement: ast.AST, guards: tuple[Guard, ...]) -> ast.expr | None:
    """The mapping a loop around the write copies from: `for key, value in M.items(): d[key] =
    value`, or `for key in M: d[key] = M[key]` (also `M.keys()`)."""
    value = getattr(statement, "value", None)
    for guard in reversed(guards):
        loop = guard.loop
        if loop is None:
            continue
        target, source = loop.target, loop.iter
        if isinstance(target, ast.Tuple) and len(target.elts) == 2 and all(isinstance(n, ast.Name) for n in target.elts):
            named, held = target.elts
            pairs = isinstance(source, ast.Call) and isinstance(source.func, ast.Attribute) and source.func.attr == "items"
            if named.id == key.id and pairs and isinstance(value, ast.Name) and value.id == held.id:  # type: ignore[attr-defined]
                return source.func.value  # type: ignore[union-attr]
        elif isinstance(target, ast.Name) and target.id == key.id:
            mapping = _keys_call(source)
            indexed = isinstance(value, ast.Subscript) and isinstance(value.slice, ast.Name) and value.slice.id == key.id
            return mapping if indexed and ast.dump(value.value) == ast.dump(mapping) else None  # type: ignore[union-attr]
    return None


def _restricted_to(reader: Evaluates, key: ast.Name, found: Kwargs, target_is, guards: tuple[Guard, ...], frame: Frame) -> set[str] | None:
    """The keys an `if key in NAMES:` around the write lets through; None: any key."""
    for guard in guards:
        test = guard.node
        if not (guard.holds and isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.In)):
            continue
        if not (isinstance(test.left, ast.Name) and test.left.id == key.id):
            continue
        names = _keys_call(test.comparators[0])
        if target_is(names):  # `if key in d:` (or `d.keys()`): the keys it already holds
            return set(found.entries)
        members = members_of(reader, test.comparators[0], frame)
        if members is not None:
            return members
    return None


def _keys_call(node: ast.expr) -> ast.expr:
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "keys" and not node.args:
        return node.func.value
    return node

"""Dicts a fork's module names (`fork_source.named_dicts`: a constant bound once to a dict literal,
a function without parameters that returns one) merged whole into a dict a function builds:
`kwargs.update(replay_engine_kwargs())`, `kwargs.update(**REPLAY)`, `kwargs |= REPLAY`,
`kwargs = {**kwargs, **REPLAY}` (or `dict(kwargs, **REPLAY)`, `kwargs | REPLAY`) and
`for k, v in REPLAY.items(): kwargs[k] = v`. Read with CPython's parser, never imported.

Each key is placed on its own line in the named dict (a finding about the mask sits where the
helper writes `"return_sampling_mask": True`). A merge of a dict not read here (a call with
arguments, a parameter), or of one under the dict's own keys (`{**REPLAY, **kwargs}`: which wins
rests on what the dict already holds), is a merge not read: the caller keeps the keys it may write
open. A binding of the name to anything else is no merge."""

from __future__ import annotations

import ast
from typing import Mapping

from ..model import UNKNOWN
from .fork_source import Written, dict_pairs, literal, merged_around, named_dict, nested_keys, snippet, spread_writes

Pairs = list[tuple[str, ast.expr]]


def merged_writes(statement: ast.stmt, name: str, named: Mapping[str, Pairs]) -> Pairs | None:
    """The keys the named dicts a statement merges into `name` write, each with its value node
    ([]: the statement merges none; None: it merges a dict not read here). Literal keys written
    in the statement itself (`name.update(k=v)`, `name.update({...})`) are `fork_source.key_writes`'."""
    if pairs := spread_writes(statement, name, named):
        return pairs
    if isinstance(statement, ast.Expr) and isinstance(call := statement.value, ast.Call) and _is_update(call.func, name):
        parts = [*call.args, *(keyword.value for keyword in call.keywords if keyword.arg is None)]
        return _named_parts(parts, named, literal_too=False)
    if isinstance(statement, ast.AugAssign) and isinstance(statement.op, ast.BitOr) and _is(statement.target, name):
        return _named_parts([statement.value], named, literal_too=True)
    if isinstance(statement, ast.Assign) and len(statement.targets) == 1 and _is(statement.targets[0], name):
        around = merged_around(statement.value, name)
        if around is None:
            return []  # bound anew: not a merge (a method's own dict of that name)
        if around[0]:
            return None  # merged under what it holds
        literal_keys = [(key, node) for key, node in around[1] if key is not None]
        found = _named_parts([node for key, node in around[1] if key is None], named, literal_too=True)
        return None if found is None else [*found, *literal_keys]
    return []


def merge_named(
    statement: ast.stmt,
    name: str,
    top: bool,
    named: Mapping[str, Pairs],
    text: str,
    into: dict[str, Written],
    unknown: set[str],
    maybe: frozenset[str],
) -> None:
    """The literal keys a statement merges into `name` from a dict of the module, written `into` the
    engine's keys at their lines in that dict where the statement always runs (`top`); a key among
    `maybe` (those that change replay) under a test, or any of them by a merge not read, `unknown`."""
    merged = merged_writes(statement, name, named)
    if merged is None:
        unknown.update(maybe)
    for key, value in merged or ():
        if top and (found := literal(value)) is not UNKNOWN:
            into[key] = Written(found, value.lineno, f"{key}={snippet(text, value)} ({snippet(text, statement)})", nested_keys(value))
        elif key in maybe:
            unknown.add(key)


def _named_parts(parts: list[ast.expr], named: Mapping[str, Pairs], literal_too: bool) -> Pairs | None:
    """The pairs of the dicts merged (a literal's own only with `literal_too`); None: one not read here."""
    found: Pairs = []
    for part in parts:
        literal = dict_pairs(part)
        pairs = literal if literal is not None else named_dict(part, named)
        if pairs is None:
            return None
        found += pairs if literal is None or literal_too else []
    return found


def _is_update(func: ast.expr, name: str) -> bool:
    return isinstance(func, ast.Attribute) and func.attr == "update" and _is(func.value, name)


def _is(node: ast.expr, name: str) -> bool:
    return isinstance(node, ast.Name) and node.id == name

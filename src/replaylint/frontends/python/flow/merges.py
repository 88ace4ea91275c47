"""Mappings merged by the library: `ChainMap(overrides, defaults)`, `functools.reduce` of a
merging function (`operator.or_`, `lambda a, b: {**a, **b}`) over written-out layers or a
`*layers` parameter, with its initial mapping, and `OmegaConf.merge(base, overrides)`, which
merges a mapping under a key into the one before it."""

from __future__ import annotations

import ast
from dataclasses import replace

from ....model import UNKNOWN
from .dicts import as_val, spread
from .facts import NOTHING, Entry, Kwargs, Val
from .frames import Evaluates, Frame
from .refs import Qualified

_TO_YAML = ("omegaconf.OmegaConf.to_yaml", "OmegaConf.to_yaml")


def chained(reader: Evaluates, node: ast.expr, frame: Frame, reverse: bool) -> Val:
    """Mappings merged: `ChainMap(overrides, defaults)` (`reverse`: the first that has a key gives
    it), `reduce(operator.or_, [a, b])` (the last)."""
    items = node.args if isinstance(node, ast.Call) else node.elts if isinstance(node, (ast.List, ast.Tuple)) else None
    if items is None:
        return NOTHING
    found = Kwargs()
    for argument in reversed(items) if reverse else items:
        if isinstance(argument, ast.Starred):
            return NOTHING
        found.merge(spread(reader, argument, frame))
    return as_val(found, frame.module.span(node))


def reduced(reader: Evaluates, node: ast.Call, frame: Frame) -> Val:
    """`reduce(merge, layers[, {}])`: the layers merged in order, written out or a `*layers` parameter."""
    layers = node.args[1]
    if isinstance(layers, (ast.List, ast.Tuple)):
        merged = chained(reader, layers, frame, reverse=False).kwargs
    else:
        items = reader.evaluate(layers, frame).ref
        if not isinstance(items, tuple) or any(item.kwargs is None for item in items):
            return NOTHING
        merged = Kwargs()
        for item in items:
            merged.merge(item.kwargs)
    if merged is None:
        return NOTHING
    found = spread(reader, node.args[2], frame).copy() if len(node.args) == 3 else Kwargs()
    found.merge(merged)
    return as_val(found, frame.module.span(node))


def merges(function: ast.expr) -> bool:
    """`operator.or_`, `dict.__or__`, `lambda a, b: {**a, **b}`, `lambda a, b: a | b`."""
    if isinstance(function, ast.Attribute):
        return function.attr in ("or_", "__or__")
    if not (isinstance(function, ast.Lambda) and len(function.args.args) == 2):
        return False
    first, second = (argument.arg for argument in function.args.args)
    body = function.body
    if isinstance(body, ast.BinOp) and isinstance(body.op, ast.BitOr):
        return [getattr(body.left, "id", None), getattr(body.right, "id", None)] == [first, second]
    if isinstance(body, ast.Dict) and all(key is None for key in body.keys):
        return [getattr(value, "id", None) for value in body.values] == [first, second]
    return False


def deep_merged(reader: Evaluates, node: ast.Call, frame: Frame) -> Val:
    """`OmegaConf.merge(base, overrides, ...)`: the configs in order, the later's keys winning and
    a mapping under a key merged into the earlier one's (a deep merge)."""
    if node.keywords or any(isinstance(argument, ast.Starred) for argument in node.args):
        return NOTHING
    found = Kwargs()
    for argument in node.args:
        found = _deep(found, spread(reader, argument, frame))
    return as_val(found, frame.module.span(node))


def created(reader: Evaluates, given: ast.expr, frame: Frame) -> Val:
    """`OmegaConf.create(config)` of a mapping the reader knows. A config written out as YAML and
    read back (`OmegaConf.create(OmegaConf.to_yaml(config, resolve=True))`) is the same config: a
    value the reader keeps unknown (an interpolation, a key from the command line) stays unknown."""
    if isinstance(given, ast.Call) and len(given.args) == 1 and not any(isinstance(a, ast.Starred) for a in given.args):
        function = reader.evaluate(given.func, frame).ref
        if isinstance(function, Qualified) and function.name in _TO_YAML:
            given = given.args[0]
    made = reader.evaluate(given, frame)
    return made if made.kwargs is not None else NOTHING


def merged_in(reader: Evaluates, found: Kwargs, node: ast.Call, frame: Frame, certain: bool) -> None:
    """OmegaConf's `cfg.merge_with(other, ...)` and `cfg.merge_with_dotlist([...])`: `found` deep
    merged in place; under a branch, the keys they name are unknown."""
    from .dotlists import from_dotlist

    dotted = isinstance(node.func, ast.Attribute) and node.func.attr == "merge_with_dotlist"
    layers = [from_dotlist(reader, node, frame).kwargs or Kwargs(reasons=["a dotted override list"])] if dotted else None
    if layers is None and (node.keywords or any(isinstance(argument, ast.Starred) for argument in node.args)):
        layers = [Kwargs(reasons=[f"{frame.module.text(node)[:40]} (not readable here)"])]
    merged = found
    for layer in layers if layers is not None else (spread(reader, argument, frame) for argument in node.args):
        merged = _deep(merged, layer if certain else _unknown_leaves(layer))
    found.entries, found.reasons = merged.entries, merged.reasons


def _unknown_leaves(layer: Kwargs) -> Kwargs:
    """The same keys, each value unknown: a merge that may not run."""
    entries = {}
    for name, item in layer.entries.items():
        nested = _unknown_leaves(item.ref) if isinstance(item.ref, Kwargs) else None
        entries[name] = replace(item, setting=replace(item.setting, value=UNKNOWN, keys={}, choices=()), ref=nested)
    return layer.rebuilt(entries)


def _deep(base: Kwargs, over: Kwargs) -> Kwargs:
    merged = base.copy()
    entries = {}
    for name, item in over.entries.items():
        earlier = base.entries.get(name)
        if earlier is None or item.guards or earlier.guards or not isinstance(earlier.ref, Kwargs) or not isinstance(item.ref, Kwargs):
            entries[name] = item
            continue
        nested = _deep(earlier.ref, item.ref)
        value = UNKNOWN if nested.reasons else nested.value()
        setting = replace(item.setting, value=value, keys={key: e.setting for key, e in nested.entries.items()})
        entries[name] = Entry(setting, None, assumptions=item.assumptions, ref=nested)
    merged.merge(over.rebuilt(entries))
    return _open_below(merged, over.reasons) if over.reasons else merged


def _open_below(found: Kwargs, reasons: list[str]) -> Kwargs:
    """An unknown config merged in (`OmegaConf.from_cli()`) may set any key at any depth: every
    mapping below stays open too."""
    entries = {}
    for name, item in found.entries.items():
        nested = item.ref
        if isinstance(nested, Kwargs):
            opened = _open_below(nested, reasons)
            opened.reasons.extend(reason for reason in reasons if reason not in opened.reasons)
            item = replace(item, setting=replace(item.setting, value=UNKNOWN, choices=()), ref=opened)
        entries[name] = item
    return found.rebuilt(entries)

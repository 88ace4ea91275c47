"""Keys filtered by a dict comprehension on their way to an engine (lm-evaluation-harness's and
LLaMA-Factory's spelling): `{k: v for k, v in args.items() if k in ENGINE_KEYS and v is not None}`.
A key is kept when the condition holds for it, dropped when it does not; where the condition
cannot be decided for a key (`k in inspect.signature(LLM.__init__).parameters`, a set made at
run time), that key may or may not pass and the result is open. The keys of
`inspect.signature(EngineArgs).parameters` known here are the engine arguments replay rules read
(`vllm.engine_fields`); any other name may or may not be a field of `EngineArgs`, so it is undecided."""

from __future__ import annotations

import ast
import copy
import os
from dataclasses import replace

from ....model import UNKNOWN
from .dicts import as_val, entry as read_entry
from .facts import NOTHING, Entry, Kwargs, Val
from .frames import Evaluates, Frame
from .loops import items_pair
from .memberships import member


def filtered(reader: Evaluates, node: ast.DictComp, frame: Frame) -> Val:
    """The mapping a `{k: v for k, v in source.items() if ...}` comprehension makes (NOTHING for
    any other comprehension)."""
    names = _key_and_value(node)
    if names is None:
        return _over_names(reader, node, frame)
    generator = node.generators[0]
    assert isinstance(generator.iter, ast.Call) and isinstance(generator.iter.func, ast.Attribute)
    source = reader.evaluate(generator.iter.func.value, frame).kwargs
    if source is None:
        return NOTHING
    found = source.rebuilt({})
    found.home = None  # a key added to the source may not pass the filter
    for name, entry in source.entries.items():
        holds = _all(reader, generator.ifs, names, name, entry, frame)
        if holds is None:
            found.reasons.append(f"`{name}` may pass the filter at {os.path.basename(frame.module.path)}:{node.lineno}")
        elif holds:
            renamed = _renamed(reader, node.key, names[0], name, frame)
            if renamed is None:
                found.reasons.append(f"`{name}` renamed at {os.path.basename(frame.module.path)}:{node.lineno}")
            else:
                found.entries[renamed] = entry if renamed == name else replace(entry, setting=replace(entry.setting, name=renamed))
    return as_val(found, frame.module.span(node))


def _renamed(reader: Evaluates, key: ast.expr, variable: str, name: str, frame: Frame) -> str | None:
    """The key a kept item gets: its own (`{k: v ...}`), or the text the key expression makes of
    it (lighteval's `{NAMING.get(k, k): v ...}`); None when that is not a known text."""
    if isinstance(key, ast.Name) and key.id == variable:
        return name
    made = reader.evaluate(_Written(variable, name).visit(copy.deepcopy(key)), frame).value
    return made if isinstance(made, str) else None


def _over_names(reader: Evaluates, node: ast.DictComp, frame: Frame) -> Val:
    """`{k: getattr(args, k) for k in ("model", "logprobs_mode")}` over names spelt out: each key's
    value read as the comprehension's expression with that name written in; a filter `if k in
    config` keeps the names a mapping known whole holds (any other filter leaves the result open)."""
    if len(node.generators) != 1 or node.generators[0].is_async:
        return NOTHING
    generator = node.generators[0]
    target = generator.target
    names = reader.evaluate(generator.iter, frame).value
    if not (isinstance(target, ast.Name) and isinstance(node.key, ast.Name) and node.key.id == target.id):
        return NOTHING
    if not isinstance(names, list) or not all(isinstance(name, str) for name in names):
        return NOTHING
    found = Kwargs(sources={frame.module.span(node)})
    for name in names:
        kept = [_named_in(reader, test, target.id, name, frame) for test in generator.ifs]
        if False in kept:
            continue
        if None in kept:
            found.reasons.append(f"`{name}` may pass the filter at {os.path.basename(frame.module.path)}:{node.lineno}")
            continue
        value = _Written(target.id, name).visit(copy.deepcopy(node.value))
        found.entries[name] = read_entry(reader, frame, name, node.value, value, None)
    return as_val(found, frame.module.span(node))


def _named_in(reader: Evaluates, test: ast.expr, variable: str, name: str, frame: Frame) -> bool | None:
    """Whether `name` passes `variable in mapping` (`not in`) of strings the reader knows whole."""
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], (ast.In, ast.NotIn))):
        return None
    if not (isinstance(test.left, ast.Name) and test.left.id == variable):
        return None
    inside = member(reader, name, test.comparators[0], frame)
    return None if inside is None else inside == isinstance(test.ops[0], ast.In)


class _Written(ast.NodeTransformer):
    """The comprehension's expression with its name replaced by one key (`getattr(args, "model")`)."""

    def __init__(self, name: str, key: str) -> None:
        self.name, self.key = name, key

    def visit_Name(self, node: ast.Name) -> ast.expr:
        return ast.copy_location(ast.Constant(self.key), node) if node.id == self.name else node


def _key_and_value(node: ast.DictComp) -> tuple[str, str] | None:
    if len(node.generators) != 1 or node.generators[0].is_async:
        return None
    pair = items_pair(node.generators[0].target, node.generators[0].iter)
    if pair is None:
        return None
    _, key, value = pair
    if not (isinstance(node.value, ast.Name) and node.value.id == value):
        return None
    if any(isinstance(n, ast.Name) and n.id == value for n in ast.walk(node.key)):
        return None  # a key made from the value
    return key, value


def _all(reader: Evaluates, tests: list[ast.expr], names: tuple[str, str], key: str, entry: Entry, frame: Frame) -> bool | None:
    verdicts = [_holds(reader, test, names, key, entry, frame) for test in tests]
    if False in verdicts:
        return False
    return None if None in verdicts else True


def _holds(reader: Evaluates, test: ast.expr, names: tuple[str, str], key: str, entry: Entry, frame: Frame) -> bool | None:
    if isinstance(test, ast.BoolOp):
        verdicts = [_holds(reader, value, names, key, entry, frame) for value in test.values]
        if isinstance(test.op, ast.And):
            return False if False in verdicts else None if None in verdicts else True
        return True if True in verdicts else None if None in verdicts else False
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        inner = _holds(reader, test.operand, names, key, entry, frame)
        return None if inner is None else not inner
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.left, ast.Name)):
        return None
    op, right, left = test.ops[0], test.comparators[0], test.left.id
    if left == names[0] and isinstance(op, (ast.In, ast.NotIn)):
        inside = member(reader, key, right, frame)
        return None if inside is None else inside == isinstance(op, ast.In)
    if left == names[0] and isinstance(op, (ast.Eq, ast.NotEq)):  # `if k != "model"`
        other = reader.evaluate(right, frame).value
        return None if not isinstance(other, str) else (key == other) == isinstance(op, ast.Eq)
    if left == names[1] and isinstance(op, (ast.Is, ast.IsNot)) and isinstance(right, ast.Constant) and right.value is None:
        value = entry.setting.value
        return None if value is UNKNOWN or entry.guards else (value is None) == isinstance(op, ast.Is)
    if left == names[1] and isinstance(op, (ast.Eq, ast.NotEq)) and isinstance(right, ast.Constant):  # KernelBench's `v != "None"`
        value = entry.setting.value
        plain = value is None or isinstance(value, (str, int, float, bool))
        return None if not plain or entry.guards else (value == right.value) == isinstance(op, ast.Eq)
    return None

"""Tests and defaults written with Python's logic: `engine_kwargs or {}`, `cfg and cfg.vllm`,
`kw is None`, `mode == "replay"`, `args.node > 1` (of numbers), `not fast`, `{} if kw is None else kw`.
A value is read as Python would read it where its truth is known (a constant, a mapping with a key,
None); otherwise it is unknown."""

from __future__ import annotations

import ast
import operator
from dataclasses import replace
from typing import Any

from ....model import UNKNOWN
from .facts import NOTHING, Kwargs, Val
from .frames import Evaluates, Frame
from .memberships import member, sampling_object
from .module import Guard
from .refs import Each, Engine, NamedFile, NotGiven, Qualified

_UNKNOWN_TRUTH = object()
_ORDERS = {ast.Lt: operator.lt, ast.LtE: operator.le, ast.Gt: operator.gt, ast.GtE: operator.ge}


def logic(reader: Evaluates, node: ast.expr, frame: Frame) -> Val:
    if isinstance(node, ast.IfExp):  # `{} if kw is None else kw`
        test = reader.evaluate(node.test, frame)
        truth = _truth(test)
        if truth is _UNKNOWN_TRUTH:
            return _either(reader, node, frame)
        chosen = _resting(reader.evaluate(node.body if truth else node.orelse, frame), test)
        return _standing_in(reader, node, node.orelse if truth else node.body, chosen, frame)
    if isinstance(node, ast.BoolOp):
        return _bool_op(reader, node, frame)
    if isinstance(node, ast.UnaryOp):
        operand = reader.evaluate(node.operand, frame)
        truth = _truth(operand)
        return NOTHING if truth is _UNKNOWN_TRUTH else Val(not truth, assumptions=operand.assumptions)
    assert isinstance(node, ast.Compare)
    if len(node.ops) != 1:
        return NOTHING
    left, right = reader.evaluate(node.left, frame), reader.evaluate(node.comparators[0], frame)
    found = _compared(reader, node, frame, left, right)  # `args.backend == "vllm"` rests on what its operands rest on
    return (
        replace(found, assumptions=tuple(dict.fromkeys((*left.assumptions, *right.assumptions, *found.assumptions))))
        if found.known
        else found
    )


def _compared(reader: Evaluates, node: ast.Compare, frame: Frame, left: Val, right: Val) -> Val:
    op = node.ops[0]
    if isinstance(op, (ast.Is, ast.IsNot)) and isinstance(node.comparators[0], ast.Constant) and node.comparators[0].value is None:
        is_none = _is_none(left)
        return NOTHING if is_none is None else Val(is_none == isinstance(op, ast.Is))
    if isinstance(op, (ast.Is, ast.IsNot)) and isinstance(right.value, bool) and _plain(left.value) and left.known:
        return Val((left.value is right.value) == isinstance(op, ast.Is))  # `do_sample is False`
    spelt = _constants(node.comparators[0])
    if isinstance(op, (ast.In, ast.NotIn)) and _plain(left.value) and spelt is not None:  # `v not in [None, ""]`
        return Val((left.value in spelt) == isinstance(op, ast.In), assumptions=left.assumptions)
    if isinstance(op, (ast.In, ast.NotIn)) and isinstance(left.value, str) and right.kwargs is not None:
        entries = right.kwargs.entries
        if (left.value not in entries and right.kwargs.reasons) or any(entry.guards for entry in entries.values()):
            return NOTHING  # a key that may be there unseen, or only on some paths
        return Val((left.value in entries) == isinstance(op, ast.In))  # `"temperature" not in kwargs`
    if isinstance(op, (ast.In, ast.NotIn)) and _plain(left.value) and (words := _known_items(right)) is not None:
        return Val((left.value in words) == isinstance(op, ast.In))  # `"--port" not in extra_args` of a list known item by item
    if isinstance(op, (ast.In, ast.NotIn)) and isinstance(left.value, str) and isinstance(right.value, str):
        return Val((left.value in right.value) == isinstance(op, ast.In))  # `"vllm" in engine_name` of a known text
    if isinstance(op, (ast.In, ast.NotIn)) and isinstance(left.value, str):  # `key in inspect.signature(EngineArgs).parameters`
        inside = member(reader, left.value, node.comparators[0], frame)
        return NOTHING if inside is None else Val(inside == isinstance(op, ast.In), assumptions=left.assumptions)
    if isinstance(op, (ast.Eq, ast.NotEq)) and _plain(left.value) and _plain(right.value):
        return Val((left.value == right.value) == isinstance(op, ast.Eq))
    if type(op) in _ORDERS and _number(left.value) and _number(right.value):  # `args.node > 1`
        return Val(_ORDERS[type(op)](left.value, right.value))
    return NOTHING


def decided(reader: Evaluates, guards: tuple[Guard, ...], frame: Frame, assumed: list[str] | None = None) -> tuple[Guard, ...] | None:
    """The guards whose test the reader cannot decide (None: one is decided against); the
    defaults a decided test rests on are added to `assumed` (`if args.fast:` with `--fast` off)."""
    left = []
    for guard in guards:
        read = reader.evaluate(guard.node, _testing(frame, guard.node)) if guard.node is not None else None
        value = read.value if read is not None else UNKNOWN
        if read is not None and read.kwargs is not None:  # `if overrides:` of a mapping the reader knows
            value = UNKNOWN if (known := truth(read)) is None else known
        if read is not None and isinstance(read.ref, (NamedFile, NotGiven)):  # a file the module names; argparse's None
            value = isinstance(read.ref, NamedFile)
        if read is not None and isinstance(value, list) and isinstance(read.ref, tuple):  # `if params.stop_sequences:` of `()`
            value = bool(value)  # a list or tuple spelt out item by item: its length is known
        if value is UNKNOWN or not isinstance(value, (bool, int, float, str, type(None))):
            left.append(guard)
            continue
        if assumed is not None and read is not None:
            assumed.extend(condition for condition, _ in read.assumptions if condition not in assumed)
        if bool(value) != guard.holds:
            return None
    return tuple(left)


def _testing(frame: Frame, test: ast.expr) -> Frame:
    """The frame a branch's test is read in: before its `if` runs (a key the branch pops is there
    for its test: `if "do_sample" in kw: flag = kw.pop("do_sample")`)."""
    if frame.at is None:
        return frame
    statement = frame.module.testing(frame.scope, test)
    return frame.reading(statement) if statement is not None and statement.order < frame.at.order else frame


def _standing_in(reader: Evaluates, node: ast.IfExp, other: ast.expr, chosen: Val, frame: Frame) -> Val:
    """`-1 if (top_k or 0) == 0 else top_k`: a literal standing in for the value the test reads
    (its other arm) is decided where that value is (cog's `Input(default=0)`), not at the literal."""
    literal = chosen.known and chosen.origin is None and chosen.kwargs is None and chosen.ref is None and not chosen.hops
    if not literal or not isinstance(other, (ast.Name, ast.Attribute)):
        return chosen
    shape = ast.dump(other)
    if not any(ast.dump(part) == shape for part in ast.walk(node.test)):
        return chosen
    decider = reader.evaluate(other, frame)
    where = decider.origin or decider.span
    if not decider.known or where is None or where == chosen.span:
        return chosen
    return replace(chosen, origin=where, hops=decider.hops, assumptions=tuple(dict.fromkeys((*decider.assumptions, *chosen.assumptions))))


def _either(reader: Evaluates, node: ast.IfExp, frame: Frame) -> Val:
    """`4096 if hard else 1024` with a test decided at run time: one of its two values, when both
    are known texts, numbers, truth values or None (a rule judges it only where every one is wrong)."""
    arms = [reader.evaluate(arm, frame) for arm in (node.body, node.orelse)]
    choices = tuple(choice for arm in arms for choice in (arm.choices or (arm,)))
    if not all(_plain(choice.value) and choice.known and choice.ref is None and choice.kwargs is None for choice in choices):
        return NOTHING
    assumptions = tuple(dict.fromkeys(a for choice in choices for a in choice.assumptions))
    return Val(span=frame.module.span(node), choices=choices, assumptions=assumptions)


def _open_or_empty(reader: Evaluates, node: ast.BoolOp, frame: Frame) -> Val:
    """`config.engine_args or {}` of a mapping not known here: a dict whose keys are not known, to
    which the keys the program writes next are known (`engine_args["model"] = weights`)."""
    last = node.values[-1]
    empty = (isinstance(last, ast.Dict) and not last.keys) or (
        isinstance(last, ast.Call) and isinstance(last.func, ast.Name) and last.func.id == "dict" and not last.args and not last.keywords
    )
    if len(node.values) != 2 or not empty:
        return NOTHING
    found = Kwargs(reasons=[f"{frame.module.text(node.values[0])[:40]} (not known here)"])
    return Val(UNKNOWN, {}, kwargs=found, span=frame.module.span(node))


def _bool_op(reader: Evaluates, node: ast.BoolOp, frame: Frame) -> Val:
    """`a or b` gives the first true value (else the last), `a and b` the first false one."""
    stop_on = isinstance(node.op, ast.Or)
    program = _found_or_named(reader, node, frame) if stop_on else None
    if program is not None:
        return program
    read = chosen_by = NOTHING
    for value in node.values:
        read = reader.evaluate(value, frame)
        holds = _truth(read)
        if holds is _UNKNOWN_TRUTH:
            return _open_or_empty(reader, node, frame) if stop_on else NOTHING
        if holds is stop_on:
            return _resting(read, chosen_by)  # `args.config or find_config_file()`: the second, as --config is not given
        chosen_by = read  # a later operand is read because of this one's value
    return _resting(read, chosen_by) if chosen_by is not read else read


def _found_or_named(reader: Evaluates, node: ast.BoolOp, frame: Frame) -> Val | None:
    """`shutil.which("vllm") or "vllm"`: the program the `PATH` holds either way (its path, else its name,
    which the spawn looks up there), read as the name; what `which` finds is not known here."""
    first = node.values[0]
    if len(node.values) != 2 or not (isinstance(first, ast.Call) and len(first.args) == 1 and not first.keywords):
        return None
    name = first.args[0]
    if not (isinstance(name, ast.Constant) and isinstance(name.value, str)):
        return None
    func = reader.evaluate(first.func, frame).ref
    if not (isinstance(func, Qualified) and func.name == "shutil.which"):
        return None
    fallback = reader.evaluate(node.values[1], frame)
    return fallback if fallback.value == name.value else None


def _resting(read: Val, test: Val) -> Val:
    """`read`, also resting on the defaults the test that chose it rests on (`--flag`'s default)."""
    if not test.assumptions:
        return read
    return replace(read, assumptions=tuple(dict.fromkeys((*test.assumptions, *read.assumptions))))


def truth(read: Val) -> bool | None:
    """A branch's test of a value the reader knows (a mapping: whether it surely holds a key, a
    key written on some paths only leaves it unknown), else None."""
    if read.kwargs is not None:
        entries = read.kwargs.entries.values()
        if any(not entry.guards for entry in entries):
            return True
        return None if read.kwargs.reasons or entries else False
    found = _truth(read)
    return None if found is _UNKNOWN_TRUTH else found


def length(read: Val) -> Val:
    """`len(kwargs)` of a mapping known whole (each key surely there: none written on some paths
    only, none that something unseen may add), else unknown."""
    if read.kwargs is None or read.kwargs.reasons or any(entry.guards for entry in read.kwargs.entries.values()):
        return NOTHING
    return Val(len(read.kwargs.entries), assumptions=read.assumptions)


def _truth(read: Val) -> Any:
    if read.kwargs is not None:  # `kw or {}`: an empty mapping or the one given hold the same keys
        return True if read.kwargs.entries else _UNKNOWN_TRUTH if read.kwargs.reasons else False
    if isinstance(read.ref, NotGiven):
        return False
    if read.ref is not None and read.value is UNKNOWN and not isinstance(read.ref, Each):  # a list may be empty
        return True  # an object the reader knows (a config, a parser)
    return _UNKNOWN_TRUTH if read.value is UNKNOWN else bool(read.value)


def _is_none(read: Val) -> bool | None:
    if isinstance(read.ref, NotGiven):
        return True
    if read.kwargs is not None or read.ref is not None:
        return False
    return None if read.value is UNKNOWN else read.value is None


def _constants(node: ast.expr) -> list | None:
    """The values of a list, tuple or set of literals spelt out (`[None, ""]`), else None."""
    items = node.elts if isinstance(node, (ast.List, ast.Tuple, ast.Set)) else None
    if items is None or not all(isinstance(item, ast.Constant) for item in items):
        return None
    return [item.value for item in items]  # type: ignore[attr-defined]


def _known_items(read: Val) -> list | None:
    """The values of a list or tuple the reader knows item by item, else None."""
    items = read.ref if isinstance(read.value, (list, tuple)) and isinstance(read.ref, tuple) else None
    if items is None or not all(isinstance(item, Val) and item.known and _plain(item.value) for item in items):
        return None
    return [item.value for item in items]


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _plain(value: Any) -> bool:
    return value is None or isinstance(value, (bool, int, float, str))


_SCALARS = (str, int, float, bool, type(None))
_BUILTIN_TYPES = {"str": str, "int": int, "float": float, "bool": bool, "dict": dict, "list": list, "tuple": tuple, "bytes": bytes}


def type_test(reader: Evaluates, node: ast.Call, frame: Frame, read: Val | None = None) -> Val:
    """`isinstance(x, str)` (or a tuple of built-in types) where `x` is a known text, number,
    truth value or None: a mapping or an object the reader knows may be of a class of its own
    (OmegaConf's `DictConfig` is no `dict`), so its test stays unknown (`read`: the object, when read already)."""
    read = reader.evaluate(node.args[0], frame) if read is None else read
    spelt = node.args[1].elts if isinstance(node.args[1], ast.Tuple) else [node.args[1]]
    if isinstance(read.ref, Engine) and sampling_object(reader, read):  # `SamplingParams(...)`: no built-in type's
        return _sampling_type_test(reader, spelt, frame)
    builtin = all(isinstance(item, ast.Name) and item.id in _BUILTIN_TYPES for item in spelt)
    if read.kwargs is not None and read.kwargs.plain and read.ref is None and builtin:  # a dict the program made or loaded
        return Val(any(item.id == "dict" for item in spelt), assumptions=read.assumptions)  # type: ignore[attr-defined]
    if type(read.value) not in _SCALARS or read.ref is not None or read.kwargs is not None:
        return NOTHING
    if read.value is None and all(_vllm_class(reader, item, frame) for item in spelt):
        return Val(False, assumptions=read.assumptions)  # `params = kw.get("sampling_params")` not given
    if not all(isinstance(item, ast.Name) and item.id in _BUILTIN_TYPES for item in spelt):
        return NOTHING
    kinds = tuple(_BUILTIN_TYPES[item.id] for item in spelt)  # type: ignore[attr-defined]
    return Val(isinstance(read.value, kinds), assumptions=read.assumptions)


def builtin_types(node: ast.expr) -> bool:
    """Whether a type test's classes are all built-in ones (`dict`, `(list, tuple)`)."""
    spelt = node.elts if isinstance(node, ast.Tuple) else [node]
    return all(isinstance(item, ast.Name) and item.id in _BUILTIN_TYPES for item in spelt)


def _vllm_class(reader: Evaluates, node: ast.expr, frame: Frame) -> bool:
    """Whether a class spelt in a type test is vLLM's (`SamplingParams`): None is no instance of it."""
    made = reader.evaluate(node, frame).ref
    return isinstance(made, Qualified) and made.name.split(".", 1)[0] == "vllm"


def _sampling_type_test(reader: Evaluates, spelt: list[ast.expr], frame: Frame) -> Val:
    """`isinstance(params, dict)` of a `SamplingParams(...)`: False for built-in types, True for
    vLLM's class; another class (a base of its own) leaves it unknown."""
    if any(sampling_object(reader, reader.evaluate(item, frame)) for item in spelt):
        return Val(True)
    return Val(False) if all(isinstance(item, ast.Name) and item.id in _BUILTIN_TYPES for item in spelt) else NOTHING


def text_test(reader: Evaluates, read: Val, method: str, node: ast.Call, frame: Frame) -> Val:
    """`text.startswith("{")`, `text.endswith((".yaml", ".yml"))`, `word.startswith(prefix + "=")`
    of a known text and known affixes."""
    argument = node.args[0] if len(node.args) == 1 and not node.keywords else None
    affixes = argument.elts if isinstance(argument, ast.Tuple) else [argument]
    if not isinstance(read.value, str) or argument is None:
        return NOTHING
    spelt = tuple(a.value if isinstance(a, ast.Constant) else reader.evaluate(a, frame).value for a in affixes)  # type: ignore[union-attr]
    if not all(isinstance(affix, str) for affix in spelt):
        return NOTHING
    return Val(getattr(read.value, method)(spelt), assumptions=read.assumptions)

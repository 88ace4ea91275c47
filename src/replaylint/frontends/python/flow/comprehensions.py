"""Keys filtered by a dict comprehension on their way to an engine (lm-evaluation-harness's and
LLaMA-Factory's spelling): `{k: v for k, v in args.items() if k in ENGINE_KEYS and v is not None}`.
Also a token map made over token ids known here (`{i: -100 for i in SPECIAL_IDS.values()}`, the
OpenAI cookbook's `logit_bias`), as `bodies.token_map` reads a literal one.
A key is kept when the condition holds for it, dropped when it does not; where the condition
cannot be decided for a key (`k in inspect.signature(LLM.__init__).parameters`, a set made at
run time), that key may or may not pass and the result is open; but a filter `k in NAMES` of strings known
here lets only those names through, so keys nobody sees here may add only them, each present with its value
unknown (docling's `if k in self._VLLM_ENGINE_KEYS`). The keys of
`inspect.signature(EngineArgs).parameters` known here are the engine arguments replay rules read
(`vllm.engine_fields`); any other name may or may not be a field of `EngineArgs`, so it is undecided.
A comprehension whose value is made from each item (`{name: spec["default"] for name, spec in
SCHEMA["properties"].items()}`, a JSON schema's defaults) is read turn by turn over items the reader
knows whole, its key and value read with the comprehension's names bound to that turn's item."""

from __future__ import annotations

import ast
import copy
import os
from dataclasses import replace

from ....model import UNKNOWN, Setting
from .dicts import as_val, entry as read_entry
from .each_items import rebinds_outer
from .facts import NOTHING, Entry, Kwargs, Val, unknown
from .field_filters import field_filtered
from .frames import Evaluates, Frame
from .loops import items_pair, known_whole, turns_of
from .memberships import member, members_of
from .module import Guard
from .signature_defaults import signature_defaults

_MAX_TURNS = 64  # turns of a comprehension read one by one; more leave the mapping unknown


def filtered(reader: Evaluates, node: ast.DictComp, frame: Frame) -> Val:
    """The mapping a `{k: v for k, v in source.items() if ...}` comprehension makes (NOTHING for
    any other comprehension)."""
    signed = signature_defaults(reader, node, frame)  # `{k: p.default for k, p in inspect.signature(f).parameters.items()}`
    if signed is not None:
        return signed
    kept = field_filtered(reader, node, frame)  # `{f.name: opts[f.name] for f in dataclasses.fields(cls) if f.name in opts}`
    if kept is not None:
        return kept
    names = _key_and_value(node)
    if names is None:
        over_names = _over_names(reader, node, frame)
        return over_names if over_names is not NOTHING else _turn_by_turn(reader, node, frame)
    generator = node.generators[0]
    assert isinstance(generator.iter, ast.Call) and isinstance(generator.iter.func, ast.Attribute)
    source = reader.evaluate(generator.iter.func.value, frame).kwargs
    allowed = _allowlist(reader, node, names[0], frame) if source is None or source.reasons else None
    if source is None and allowed is None:
        return NOTHING
    found = (source or Kwargs()).rebuilt({})
    found.home = None  # a key added to the source may not pass the filter
    where = f"{os.path.basename(frame.module.path)}:{node.lineno}"
    for name, entry in (source or found).entries.items():
        holds = _all(reader, generator.ifs, names, name, entry, frame)
        if holds is None and allowed is not None:
            found.entries[name] = _may_pass(unknown(entry), where)
        elif holds is None:
            found.reasons.append(f"`{name}` may pass the filter at {where}")
        elif holds:
            renamed = _renamed(reader, node.key, names[0], name, frame)
            if renamed is None:
                found.reasons.append(f"`{name}` renamed at {os.path.basename(frame.module.path)}:{node.lineno}")
            else:
                found.entries[renamed] = entry if renamed == name else replace(entry, setting=replace(entry.setting, name=renamed))
    if allowed is not None:  # what nobody sees here passes only under the allowlist's names
        found.reasons = []
        span = frame.module.span(node)
        for name in sorted(allowed - set(found.entries)):
            found.entries[name] = _may_pass(Entry(Setting(name, UNKNOWN, span, frame.module.text(generator.ifs[0]))), where)
    return as_val(found, frame.module.span(node))


def _allowlist(reader: Evaluates, node: ast.DictComp, key: str, frame: Frame) -> set[str] | None:
    """The names a filter lets keys through under, whatever the mapping holds: `if k in NAMES` of
    strings the reader knows whole, alone or joined to other tests by `and` (docling's
    `{k: v for k, v in extra_cfg.items() if k in self._VLLM_ENGINE_KEYS}`); None for any other
    filter, or a comprehension that renames its keys."""
    if not (isinstance(node.key, ast.Name) and node.key.id == key):
        return None
    tests = list(node.generators[0].ifs)
    allowed: set[str] | None = None
    while tests:
        test = tests.pop()
        if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And):
            tests.extend(test.values)
            continue
        named = isinstance(test, ast.Compare) and isinstance(test.left, ast.Name) and test.left.id == key
        if not (named and len(test.ops) == 1 and isinstance(test.ops[0], ast.In)):  # type: ignore[attr-defined]
            continue
        members = members_of(reader, test.comparators[0], frame)  # type: ignore[attr-defined]
        if members is not None:
            allowed = members if allowed is None else allowed & members
    return allowed


def _may_pass(item: Entry, where: str) -> Entry:
    """A key that may or may not pass the filter: present, its value not known, so that no finding rests on
    its absence or its value (a branch that may run or not, as a loop's body)."""
    return replace(item, guards=(Guard(opaque=True, label=f"may pass the filter at {where}"),), otherwise=None)


def _renamed(reader: Evaluates, key: ast.expr, variable: str, name: str, frame: Frame) -> str | None:
    """The key a kept item gets: its own (`{k: v ...}`), or the text the key expression makes of
    it (lighteval's `{NAMING.get(k, k): v ...}`); None when that is not a known text."""
    if isinstance(key, ast.Name) and key.id == variable:
        return name
    made = reader.evaluate(_Written(variable, name).visit(copy.deepcopy(key)), frame).value
    return made if isinstance(made, str) else None


def _over_names(reader: Evaluates, node: ast.DictComp, frame: Frame) -> Val:
    """`{k: getattr(args, k) for k in ("model", "logprobs_mode")}` over names spelt out (or the keys
    or values of a dict known whole): each key's value read as the comprehension's expression with
    that name written in; a filter `if k in config` keeps the names a mapping known whole holds (any
    other filter leaves the result open). Over token ids, unfiltered, a token map."""
    if len(node.generators) != 1 or node.generators[0].is_async:
        return NOTHING
    generator = node.generators[0]
    target = generator.target
    if not (isinstance(target, ast.Name) and isinstance(node.key, ast.Name) and node.key.id == target.id):
        return NOTHING
    names = reader.evaluate(generator.iter, frame).value
    if names is UNKNOWN or isinstance(names, dict):
        names = _iterated(reader, generator, frame)
    if isinstance(names, list) and names and all(_token_id(name) for name in names) and not generator.ifs:
        return _token_map(reader, node, target.id, names, frame)
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


def _turn_by_turn(reader: Evaluates, node: ast.DictComp, frame: Frame) -> Val:
    """Each turn's key and value over items the reader knows whole (NOTHING when it does not know
    them, or a name of the comprehension is also bound outside it); a turn whose filter or key is
    not known leaves the result open."""
    generator = node.generators[0]
    if len(node.generators) != 1 or generator.is_async or frame.turn is not None or rebinds_outer(node.generators, frame):
        return NOTHING  # inside a loop's turn, its names would be hidden by the comprehension's
    turns = turns_of(reader, generator, frame)  # type: ignore[arg-type]  # a target and an iterable, as a loop's
    if turns is None or len(turns) > _MAX_TURNS:
        return NOTHING
    found = Kwargs(sources={frame.module.span(node)})
    for turn in turns:
        here = replace(frame, turn=(generator, turn))
        tests = [reader.evaluate(test, here).value for test in generator.ifs]
        if any(test is False for test in tests):
            continue
        key = reader.evaluate(node.key, here).value
        if not isinstance(key, str) or not all(test is True for test in tests):
            found.reasons.append(f"an item of the comprehension at {os.path.basename(frame.module.path)}:{node.lineno}")
            continue
        found.entries.pop(key, None)
        found.entries[key] = read_entry(reader, here, key, node.value, node.value, None)
    return as_val(found, frame.module.span(node))


def _turns(reader: Evaluates, generator: ast.comprehension, frame: Frame) -> list | None:
    """What each turn binds the comprehension's names to, as a loop's turns (`loops.turns_of`); over
    `d.values()` of a dict the reader knows whole, its name bound to each entry in turn."""
    iterated, target = generator.iter, generator.target
    over_values = isinstance(iterated, ast.Call) and isinstance(iterated.func, ast.Attribute) and iterated.func.attr == "values"
    if not over_values:
        return turns_of(reader, generator, frame)  # type: ignore[arg-type]  # a target and an iterable, as a loop's
    if iterated.args or iterated.keywords or not isinstance(target, ast.Name):  # type: ignore[union-attr]
        return None
    found = known_whole(reader, iterated.func.value, frame)  # type: ignore[union-attr]
    return None if found is None else [{target.id: entry} for entry in found.entries.values()]


def _iterated(reader: Evaluates, generator: ast.comprehension, frame: Frame) -> list | None:
    """What a comprehension over a dict known whole goes through, a turn's item each (`_turns`):
    `d` or `d.keys()` its keys, `d.values()` its values."""
    turns = _turns(reader, generator, frame)
    if turns is None or not isinstance(generator.target, ast.Name):
        return None
    items = [turn[generator.target.id] for turn in turns]
    return [
        item.setting.value if isinstance(item, Entry) else item if isinstance(item, str) else reader.evaluate(*item).value for item in items
    ]


def _token_id(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _token_map(reader: Evaluates, node: ast.DictComp, variable: str, ids: list, frame: Frame) -> Val:
    """`{token_id: -100.0 for token_id in BANNED_IDS.values()}` over token ids known here (a
    `logit_bias`): each id's value read with the id written in (also where the comprehension's name
    is bound outside it, which a read in its turn would take). The comprehension decides the biases,
    so a finding on them sits there (`origin`), wherever the map is passed."""
    values = {key: reader.evaluate(_Written(variable, key).visit(copy.deepcopy(node.value)), frame).value for key in ids}
    span = frame.module.span(node)
    return Val(values, span=span, origin=span, written=frame.module.text(node))


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

    def __init__(self, name: str, key: object) -> None:
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
    if isinstance(test, ast.Call):
        return _affixed(reader, test, names[0], key, frame)
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


def _affixed(reader: Evaluates, test: ast.Call, variable: str, key: str, frame: Frame) -> bool | None:
    """`k.startswith("@@@")` (`endswith`) of the key and a known text or tuple of texts (mellea's
    `remove_special_keys`)."""
    func = test.func
    if not (isinstance(func, ast.Attribute) and func.attr in ("startswith", "endswith") and isinstance(func.value, ast.Name)):
        return None
    if func.value.id != variable or len(test.args) != 1 or test.keywords:
        return None
    affix = reader.evaluate(test.args[0], frame).value
    if isinstance(affix, (tuple, list)) and affix and all(isinstance(part, str) for part in affix):
        affix = tuple(affix)
    elif not isinstance(affix, str):
        return None
    return key.startswith(affix) if func.attr == "startswith" else key.endswith(affix)

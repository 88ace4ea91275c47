"""Engine arguments built as dicts: literals with `**` spreads, `dict(BASE, k=v)`, and the writes
that follow the binding in its scope (`d["k"] = v`, `d.update(...)`, `d |= {...}`,
`d.setdefault(...)`, `d.pop(...)`, `del d["k"]`), each key with the branches it is written
under. A write the reader cannot read (a key that is no string literal, the dict handed to a
call that may change it) leaves the dict open."""

from __future__ import annotations

import ast
from dataclasses import replace
from typing import Iterator

from ....edits import Sequence
from ....model import UNKNOWN, Setting, Span
from .facts import NOTHING, Entry, Kwargs, Place, Val, under, unknown
from .frames import Evaluates, Frame, expressions, reaching
from .handed_dicts import REMOVES, change_by
from .logic import decided
from .loops import each_turn, keyed_by_target, turn_by_turn
from .module import Guard, Module, Placed
from .refs import Function
from .renamed_keys import renames_in_place
from .unknown_keys import overwritten

_CHANGES = frozenset(("update", "setdefault", "pop", "popitem", "clear"))  # methods that change a dict in place
# Calls that read a dict handed to them and never change it.
_READERS = frozenset(
    ("print", "info", "debug", "warning", "error", "log", "dumps", "len", "str", "repr", "deepcopy", "copy", "pformat", "pprint", "dict")
    + ("hasattr", "getattr", "isinstance")
)


def container(module: Module, node: ast.Dict | ast.Call) -> Place:
    """A dict literal or a call's arguments, as fixes edit them."""
    text = module.source.text
    close = module.span(node).end - 1
    if isinstance(node, ast.Dict):
        elements = []
        for key, value in zip(node.keys, node.values):
            start = module.span(key).start if key is not None else module.span(value).start - 2
            elements.append((start, module.span(value).end))
        quote = next((text[module.span(key).start] for key in node.keys if isinstance(key, ast.Constant)), '"')
        return Place(module, Sequence(tuple(elements), close=close), quote if quote in "'\"" else '"', "dict")
    every = sorted([*node.args, *node.keywords], key=lambda item: (item.lineno, item.col_offset))
    elements = [(module.span(item).start, module.span(item).end) for item in every]  # a `**spread` keyword starts at its `**`
    quotes = [
        text[module.span(k.value).start] for k in node.keywords if isinstance(k.value, ast.Constant) and isinstance(k.value.value, str)
    ]
    quote = next((q for q in quotes if q in "'\""), '"')
    return Place(module, Sequence(tuple(elements), close=close), quote, "call")


def entry(reader: Evaluates, frame: Frame, name: str, first: ast.AST, value: ast.expr, place: Place | None) -> Entry:
    """The entry `name` written from `first` to `value` (a dict item, a keyword, a write)."""
    module = frame.module
    read = reader.evaluate(value, frame)
    span = module.span(first, value)
    ref = read.ref if read.ref is not None or read.kwargs is None else read.kwargs  # a nested dict stays one (`cfg.engine_kwargs`)
    if read.origin is not None:  # the value is decided elsewhere (an argparse default, a dataclass field, a config's entry)
        spelling = read.written if read.written and not read.assumptions else module.text(first, value)
        setting = Setting(
            name, read.value, read.origin, spelling, read.span, read.keys, via=(*read.hops, span), choices=_choices(name, read, span)
        )
        return Entry(setting, None, assumptions=read.assumptions, ref=ref)
    value_span = read.span if read.span is not None and read.span.path == module.path else module.span(value)
    setting = Setting(
        name, read.value, span, module.text(first, value), value_span, read.keys, via=read.hops, choices=_choices(name, read, span)
    )
    return Entry(setting, place if not read.hops else None, assumptions=read.assumptions, ref=ref)


def _choices(name: str, read: Val, span: Span) -> tuple[Setting, ...]:
    """The values a conditional expression may give a key, each where it is written."""
    return tuple(Setting(name, choice.value, choice.origin or choice.span or span, choice.written, choice.span) for choice in read.choices)


def literal(reader: Evaluates, node: ast.Dict, frame: Frame) -> Val:
    module = frame.module
    found = Kwargs(home=container(module, node), sources={module.span(node)}, plain=True)
    for position, (key, value) in enumerate(zip(node.keys, node.values)):
        if key is None:
            found.merge(spread(reader, value, frame))
        elif (name := key.value if isinstance(key, ast.Constant) else named_key(reader, key, frame)) is not None and isinstance(name, str):
            found.entries.pop(name, None)
            found.entries[name] = entry(reader, frame, name, key, value, found.home.at(position))  # type: ignore[union-attr]
        else:
            found.reasons.append(f"{module.text(key)[:30]} (a key not known here)")
    # `field(default_factory=dict)` is read as `{}` written where `dict` is: no literal to add a key to
    found.home = container(module, node) if module.text(node).startswith("{") else None
    return as_val(found, module.span(node))


def call(reader: Evaluates, node: ast.Call, frame: Frame, positional: bool = True) -> Val:
    """`dict(BASE, k=v, **more)`; without `positional`, only the keywords (`partial(LLM, k=v)`)."""
    module = frame.module
    place = container(module, node)
    found = Kwargs(home=place, sources={module.span(node)}, plain=positional)
    for argument in node.args if positional else ():
        found.merge(zipped(reader, argument, frame) if _is_zip(argument, frame) else spread(reader, argument, frame))
    every = sorted([*node.args, *node.keywords], key=lambda item: (item.lineno, item.col_offset))
    for keyword in node.keywords:
        if keyword.arg is None:
            found.merge(spread(reader, keyword.value, frame))
        else:
            found.entries.pop(keyword.arg, None)
            found.entries[keyword.arg] = entry(reader, frame, keyword.arg, keyword, keyword.value, place.at(every.index(keyword)))
    found.home = place
    return as_val(found, module.span(node))


def spread(reader: Evaluates, node: ast.expr, frame: Frame) -> Kwargs:
    """The keys `**node` gives (open when they cannot be read)."""
    read = reader.evaluate(node, frame)
    binding = reaching(frame, node.id) if isinstance(node, ast.Name) else None
    parameter = binding is not None and binding.kind == "parameter"  # what the caller passes, then the keys written here
    if read.kwargs is not None:
        found = written(reader, read.kwargs, node.id, frame, None, frame.at, passed=True) if parameter else read.kwargs  # `kwargs.pop("k")`
        hops = read.hops
        if not hops:
            return found
        return found.rebuilt({name: _via(item, hops) for name, item in found.entries.items()})
    unread = Kwargs(reasons=[f"**{frame.module.text(node)[:40]}"])
    return written(reader, unread, node.id, frame, None, frame.at, passed=True) if parameter else unread


def _is_zip(node: ast.expr, frame: Frame) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "zip" and reaching(frame, "zip") is None


def zipped(reader: Evaluates, node: ast.Call, frame: Frame) -> Kwargs:
    """`dict(zip(KEYS, values))` of two sequences the reader knows item by item: each key's value
    decided where its item is written (a row of a table). Open when a key is no text, the
    lengths differ (`zip` stops at the shorter: a `strict=` or a missing item is not guessed) or
    a sequence is not spelt out."""
    reads = [reader.evaluate(argument, frame) for argument in node.args] if len(node.args) == 2 and not node.keywords else []
    keys, values = (read.ref for read in reads) if reads else (None, None)
    if not (isinstance(keys, tuple) and isinstance(values, tuple) and len(keys) == len(values)):
        return Kwargs(reasons=[f"{frame.module.text(node)[:40]} (pairs not known here)"])
    found = Kwargs(sources={frame.module.span(node)})
    for key, item in zip(keys, values):
        if not isinstance(key.value, str):
            return Kwargs(reasons=[f"{frame.module.text(node)[:40]} (a key not known here)"])
        where = item.origin or item.span or frame.module.span(node)
        spelling = item.written or f"{key.value}={_text_at(frame, item.span) or frame.module.text(node)[:40]}"
        setting = Setting(key.value, item.value, where, spelling, item.span, item.keys, via=(*item.hops, frame.module.span(node)))
        found.entries.pop(key.value, None)
        found.entries[key.value] = Entry(setting, None, assumptions=item.assumptions, ref=item.ref or item.kwargs)
    return found


def _text_at(frame: Frame, span) -> str:
    """The text at `span` when it is in the frame's module."""
    return frame.module.source.text[span.start : span.end] if span is not None and span.path == frame.module.path else ""


def from_keys(reader: Evaluates, node: ast.Call, frame: Frame) -> Val:
    """`dict.fromkeys(KEYS, value)`: each key the sequence spells, all with the one value (None
    without one), decided at the call; unknown keys leave the dict open."""
    module = frame.module
    if not node.args or len(node.args) > 2 or node.keywords:
        return NOTHING
    keys = reader.evaluate(node.args[0], frame).value
    if not isinstance(keys, list) or not all(isinstance(key, str) for key in keys):
        return as_val(Kwargs(reasons=[f"{module.text(node)[:40]} (keys not known here)"]), module.span(node))
    value = node.args[1] if len(node.args) == 2 else None
    read = reader.evaluate(value, frame) if value is not None else Val(None, span=module.span(node))
    found = Kwargs(sources={module.span(node)})
    for key in keys:
        setting = Setting(
            key,
            read.value,
            module.span(node),
            f"{key!r}: {module.text(value) if value is not None else 'None'}",
            read.span,
            read.keys,
            via=read.hops,
        )
        found.entries[key] = Entry(setting, None, assumptions=read.assumptions)
    return as_val(found, module.span(node))


def _via(item: Entry, hops: tuple) -> Entry:
    setting = item.setting
    return replace(item, setting=replace(setting, via=(*setting.via, *hops)))


def as_val(found: Kwargs, span=None) -> Val:
    value = UNKNOWN if found.reasons else found.value()
    return Val(value, {name: item.setting for name, item in found.entries.items()}, kwargs=found, span=span)


def nested(item: Entry) -> Val | None:
    """The mapping an entry holds as a dict of its own (`"engine_kwargs": {...}`), read where
    the entry is used: its keys keep their places; None when it holds no such dict."""
    if not isinstance(item.ref, Kwargs):
        return None
    setting = item.setting
    return replace(as_val(item.ref, setting.value_span), origin=setting.span, hops=setting.via)


# writes after the binding


def written(
    reader: Evaluates, base: Kwargs, target: str, frame: Frame, after: Placed | None, until: Placed | None, passed: bool = False
) -> Kwargs:
    """`base` with the writes into `target` (its text: `kw`, `self.vllm_args`) made by the
    statements of `frame`'s scope after `after` and before `until` (`passed`: `target` is a
    parameter, `base` what a caller passes it)."""
    found = base.copy()
    home = after.guards if after is not None else ()
    renaming = None  # a loop that renames keys (`renamed_keys`), read whole
    same = lambda node: _is(node, target, frame.module)  # noqa: E731
    for placed in frame.module.statements(frame.scope):
        if after is not None and placed.order <= after.order:
            continue
        if until is not None and placed.order >= until.order:
            break
        if renaming is not None and any(guard.loop is renaming for guard in placed.guards):
            continue
        if not placed.guards and renames_in_place(reader, found, placed.statement, same, frame.reading(placed)):
            renaming = placed.statement
            continue
        guards = placed.guards[len(home) :] if placed.guards[: len(home)] == home else placed.guards
        here = frame.reading(placed)
        writes = list(_writes(placed.statement, target, frame.module, lambda node, at=here: named_key(reader, node, at)))
        if not writes:
            continue
        guards = decided(reader, guards, frame.reading(placed), found.assumed)
        if guards is None:
            continue  # under a branch that is never taken
        for write in writes:
            if written_each_turn(reader, found, write, guards, frame.reading(placed)):
                continue
            _apply(reader, found, write, guards, frame.reading(placed), passed)
            if write[0] == "set" and write[1] is None:  # `d[key] = value`, the key not known: which keys it may overwrite
                overwritten(reader, found, write[2], lambda node: _is(node, target, frame.module), guards, frame.reading(placed))
    return found


def written_each_turn(reader: Evaluates, found: Kwargs, write: tuple, guards: tuple[Guard, ...], frame: Frame) -> bool:
    """`kw[key] = value` (or `setattr(sp, key, value)`) in a loop over pairs spelt out (`loops`):
    each turn's key written, out of the loop's branch (it runs every turn). False: not such a write."""
    loop = next((guard for guard in reversed(guards) if guard.loop is not None), None)
    if write[0] != "set" or loop is None or (write[1] is not None and not keyed_by_target(loop.loop, write[2])):
        return False  # (a key the loop's own name gives is the one a loop over one item gives: read by turn still)
    number = max(n for n, guard in enumerate(guards) if guard is loop)
    inside = guards[number + 1 :]
    by_turn = turn_by_turn(reader, loop.loop, write[2], inside, frame) if inside else None  # branches in the loop decided per turn
    turns = by_turn if by_turn is not None else each_turn(reader, loop.loop, write[2], frame)
    if turns is None and not inside:  # a value computed from the turn's names
        turns = by_turn = turn_by_turn(reader, loop.loop, write[2], inside, frame)
    if turns is None:
        return False
    left = guards[:number] if by_turn is not None else tuple(guard for guard in guards if guard is not loop)
    for turn in turns:
        item = turn.item or entry(reader, turn.frame, turn.key, turn.first, turn.value, None)  # type: ignore[arg-type]
        item = unknown(item) if turn.maybe else item  # present or not: its value unknown, no finding rests on it
        earlier = found.entries.pop(turn.key, None)
        found.entries[turn.key] = replace(item, guards=left, otherwise=earlier if left else None)
    return True


def writes_into(module: Module, scope: ast.AST, target: str) -> bool:  # another method's `self.x[...]`
    return any(next(_writes(placed.statement, target, module), None) is not None for placed in module.statements(scope))


def named_key(reader: Evaluates, node: ast.expr, frame: Frame) -> str | None:
    """A key spelt by a name bound to a string (`kw[MODE_KEY] = ...`)."""
    if not isinstance(node, (ast.Name, ast.Attribute)):
        return None
    value = reader.evaluate(node, frame).value
    return value if isinstance(value, str) else None


def _writes(statement: ast.stmt, target: str, module: Module, named_key=None) -> Iterator[tuple]:
    """(kind, key, first node, value node) of each write of `statement` into `target`
    (`named_key`: reads a key spelt by a name)."""
    if isinstance(statement, (ast.Assign, ast.Delete)):
        for node in statement.targets:
            if isinstance(node, ast.Attribute) and isinstance(statement, ast.Assign) and _is(node.value, target, module):
                yield ("set", node.attr, statement, statement.value)  # `ns.logprobs_mode = ...` (a namespace's keys)
            if isinstance(node, ast.Subscript) and _is(node.value, target, module):
                key = node.slice.value if isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, str) else None
                if key is None and named_key is not None:
                    key = named_key(node.slice)
                yield ("set" if isinstance(statement, ast.Assign) else "remove", key, statement, getattr(statement, "value", None))
            nested = node.value if isinstance(node, ast.Subscript) else None
            if isinstance(nested, ast.Subscript) and _is(nested.value, target, module):  # `d["sampling_params"]["top_k"] = 5`
                keys = (_constant_key(nested.slice), _constant_key(node.slice) if isinstance(statement, ast.Assign) else None)
                yield ("nested", keys, statement, getattr(statement, "value", None))
        rebinds = any(_is(node, target, module) for node in statement.targets)  # `kw = update_by_default(kw, ...)`: a new binding
        for node in expressions(statement) if isinstance(statement, ast.Assign) else ():  # `n = kw.pop("n")`
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and _is(node.func.value, target, module):
                yield from _method_write(node.func.attr, node, statement)
            elif isinstance(node, ast.Call) and _callee(node.func) not in _READERS and not rebinds and "." not in target:
                yield from (("taken", *write[1:]) for write in _handed(node, target, module, statement))  # `model = make(llm, kw)`
        return
    if isinstance(statement, ast.AugAssign) and _is(statement.target, target, module) and isinstance(statement.op, ast.BitOr):
        yield ("merge", None, statement, statement.value)
        return
    for node in expressions(statement):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if isinstance(func, ast.Attribute) and _is(func.value, target, module):
            yield from _method_write(func.attr, node, statement)
        elif (
            isinstance(func, ast.Attribute)
            and func.attr in _CHANGES
            and isinstance(func.value, ast.Subscript)
            and _is(func.value.value, target, module)
        ):
            yield ("nested", (_constant_key(func.value.slice), None), statement, None)  # `d["env_vars"].update(...)`: not known
        elif _callee(func) not in _READERS:
            yield from _handed(node, target, module, statement)


def _handed(node: ast.Call, target: str, module: Module, statement: ast.stmt) -> Iterator[tuple]:
    """The dict handed to a call that may change it: by its position, what the function does (`handed_dicts`)."""
    for position, argument in enumerate(node.args):
        if _is(argument, target, module):
            yield ("handed", position, statement, node)


def _method_write(method: str, node: ast.Call, statement: ast.stmt) -> Iterator[tuple]:
    first = node.args[0] if node.args else None
    key = first.value if isinstance(first, ast.Constant) and isinstance(first.value, str) else None
    if method == "update":
        for argument in node.args:
            yield ("merge", None, argument, argument)
        for keyword in node.keywords:
            yield ("set", keyword.arg, keyword, keyword.value, node) if keyword.arg else ("merge", None, keyword.value, keyword.value)
    elif method == "setdefault" and first is not None:
        yield ("default", key, statement, node.args[1] if len(node.args) > 1 else ast.Constant(None))
    elif method in ("merge_with", "merge_with_dotlist"):  # OmegaConf's, in place: a deep merge
        yield ("deep", None, statement, node)
    elif method in ("pop", "popitem", "clear"):
        yield ("remove", key, statement, None) if method == "pop" else ("opaque", None, statement, None)


def _apply(reader: Evaluates, found: Kwargs, write: tuple, guards: tuple[Guard, ...], frame: Frame, passed: bool = False) -> None:
    kind, key, first, value, *call = write
    module = frame.module
    certain = not guards
    unreadable = any(guard.opaque for guard in guards)
    if kind == "deep":
        reader.merged_in(found, value, frame, certain and not unreadable)
        return
    change = change_by(reader, value, key, frame) if kind in ("handed", "taken") else None
    if change == REMOVES:  # keys it held may be gone, none put in
        found.entries.update([(name, unknown(item)) for name, item in found.entries.items()])
    if change is not None:  # (`READS`: unchanged)
        return
    if kind == "taken" and not isinstance(reader.evaluate(value.func, frame).ref, Function):
        return  # a class or library call in an assignment (`model = Model(cfg, kw)`, often the read itself): as written
    if kind in ("opaque", "handed", "taken") or (kind != "merge" and key is None):
        found.reasons.append(f"{module.text(first)[:40]} (not readable here)")
        return
    if kind == "nested":
        _set_nested(reader, found, key, first, value, guards, frame)
        return
    if kind == "merge":
        more = spread(reader, value, frame)
        if unreadable:
            more = more.rebuilt({n: unknown(i) for n, i in more.entries.items()})
        found.merge(more.guarded(guards))
        return
    if kind == "remove":
        if certain:
            found.entries.pop(key, None)
        elif key in found.entries:
            found.entries[key] = unknown(found.entries[key])
        return
    if kind == "default" and key in found.entries and not found.entries[key].guards:
        return  # setdefault keeps the value already there
    written_entry = entry(reader, frame, key, first, value, _place_of(frame.module, first, call))
    if kind == "default" and value.lineno > first.lineno and written_entry.setting.span == module.span(first, value):
        written_entry = replace(written_entry, setting=replace(written_entry.setting, span=module.span(value)))  # the value's line
    if unreadable or (kind == "default" and passed and found.may_hold(key)):  # a caller's key may win over the default
        written_entry = unknown(written_entry)
    if kind == "default" and key in found.entries:  # kept where the earlier write's `if` held
        found.entries[key] = under(found.entries[key], replace(written_entry, guards=guards))
        return
    earlier = found.entries.pop(key, None)
    found.entries[key] = replace(written_entry, guards=guards, otherwise=earlier if guards else None)


def _set_nested(
    reader: Evaluates, found: Kwargs, keys: tuple[str | None, str | None], first: ast.AST, value: ast.expr, guards: tuple, frame: Frame
) -> None:
    """A write into a dict the arguments hold (`d["sampling_params"]["top_k"] = 5`): the inner key
    set, when both keys are known and the write is certain; else the inner dict unknown."""
    outer, inner = keys
    held = found.entries.get(outer) if outer is not None else None
    if held is None:
        if outer is None:
            found.reasons.append(f"{frame.module.text(first)[:40]} (not readable here)")
        return
    old = held.setting
    if inner is None or guards or not isinstance(old.value, dict):
        found.entries[outer] = replace(unknown(held), ref=None)  # its own dict no longer what it was
        return
    written_entry = entry(reader, frame, inner, first, value, None)
    written = written_entry.setting
    setting = replace(old, value={**old.value, inner: written.value}, keys={**old.keys, inner: written})
    ref = held.ref
    if isinstance(ref, Kwargs):  # the dict itself, as `nested` reads it (`runtime_env["env_vars"]`)
        ref = ref.copy()
        ref.entries.pop(inner, None)
        ref.entries[inner] = written_entry
    found.entries[outer] = replace(held, setting=setting, place=None, ref=ref)


def _constant_key(node: ast.expr) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def _place_of(module: Module, first: ast.AST, call: list) -> Place:
    """Where a written key is removed: the keyword of `update(...)`, else the whole statement."""
    if call:
        node = call[0]
        every = sorted(node.keywords, key=lambda k: (k.lineno, k.col_offset))
        return container(module, node).at(len(node.args) + every.index(first))
    span = module.span(first)
    target = module.text(first.targets[0].value) if isinstance(first, ast.Assign) and isinstance(first.targets[0], ast.Subscript) else ""
    quote = module.source.text[module.span(first.targets[0].slice).start] if target else '"'  # type: ignore[attr-defined]
    return Place(module, Sequence(((span.start, span.end),)), quote if quote in "'\"" else '"', "statement", 0, target)


def _is(node: ast.expr, target: str, module: Module) -> bool:
    if isinstance(node, ast.Name):
        return node.id == target
    return isinstance(node, ast.Attribute) and "." in target and module.text(node) == target


def _callee(func: ast.expr) -> str | None:
    return func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else None

"""The dict methods the reader follows: `cfg.get(key, default)` (the key spelt out or known, as a
loop's turn binds it: `for k in config.keys(): kwargs[k] = config.get(k)`, or a default of the run:
`table["models"].get(args.model, {})` with `--model`'s argparse default picks that row, which rests on
the default; a parameter's mapping no caller in the tree passes is judged as written, the message
saying so), `cfg.copy()`, `cfg.pop(key)`, `cfg.items()` and `cfg.values()` of a mapping known whole (alpaca_eval's
`list(configs.values())[0]`, the one model of a YAML file), and `os.environ.get(...)`."""

from __future__ import annotations

import ast
from dataclasses import replace

from ....model import Span
from .facts import NOTHING, Kwargs, Val, read_from
from .frames import Evaluates, Frame, reaching
from .objects import Instance, field, method_result
from .refs import Bound, Qualified
from .run_inputs import environment_default
from .unknown_receivers import called_on_unknown


def dict_method(reader: Evaluates, node: ast.Call, func: ast.Attribute, frame: Frame) -> Val:
    """`cfg.get(key, default)`, `cfg.copy()`, `cfg.pop(key)` of a mapping the reader knows, and
    `os.environ.get(...)` (a default of the run)."""
    owner = reader.evaluate(func.value, frame)
    if isinstance(owner.ref, Qualified) and owner.ref.name == "os.environ" and func.attr == "get":
        return environment_default(reader, node, frame)
    if isinstance(owner.ref, Instance) and owner.ref.plain:  # FlashRAG's `Config.get(key, default)`: the class's own
        bound = reader.evaluate(func, frame).ref
        if not isinstance(bound, Bound):
            return NOTHING
        return reader.returned(bound.function, node, frame, instance=bound.fields)  # type: ignore[attr-defined]
    if func.attr == "copy":
        return owner if owner.kwargs is not None else NOTHING
    if func.attr == "items" and not node.args and (pairs := _pairs(reader, owner, frame)) is not NOTHING:
        return pairs
    if func.attr == "values" and not node.args and (pairs := _pairs(reader, owner, frame, values=True)) is not NOTHING:
        return Val([value for _, value in pairs.value], span=pairs.span, ref=tuple(pair.ref[1] for pair in pairs.ref))
    if func.attr == "values":
        return method_result(reader, reader.evaluate(func, frame), func, node, frame)
    named = reader.evaluate(node.args[0], frame) if node.args else None  # `config.get(k)` in a turn of `for k in config.keys()`
    key = named.value if named is not None else None
    resting = named.assumptions if named is not None else ()  # a key from a default (`--model`'s): the entry rests on it
    unread = owner.kwargs is None or (not owner.kwargs.entries and (owner.kwargs.reasons or owner.kwargs.assumed))
    if unread and not resting and isinstance(key, str) and len(node.args) > 1 and _unbound_parameter(func.value, frame):
        # `cfg.get("top_k", -1)` with no caller in the tree: judged as written, and the message says so
        assert isinstance(func.value, ast.Name)
        read = reader.evaluate(node.args[1], frame)
        if read.span is None:
            return NOTHING
        forwarded = frame.function is not None and frame.function.args.kwarg is not None and frame.function.args.kwarg.arg == func.value.id
        if forwarded and _called_with(reader, frame, key):
            return NOTHING
        unless = f"the caller passes no `{key}`" if forwarded else f"the caller's `{func.value.id}` has no `{key}`"
        return replace(read, assumptions=((unless, read.span),))
    if owner.kwargs is None or not isinstance(key, str):
        return method_result(reader, reader.evaluate(func, frame), func, node, frame)
    found = _entry_or_default(reader, node, owner, key, frame)
    if resting and found is not NOTHING and found.kwargs is None:
        # a scalar a key from a default picks (`CONFIG.get(args.key, 20)`): a request's message could not say so
        return method_result(reader, reader.evaluate(func, frame), func, node, frame)
    return _resting_on(found, resting) if resting and found is not NOTHING else found


def _resting_on(found: Val, resting: tuple[tuple[str, Span], ...]) -> Val:
    """The entry a key from a default picks, resting on that default: a mapping's keys each, and
    its being complete (`table["models"].get(model, {})`: the row of `--model`'s default)."""
    mapping = found.kwargs
    assert mapping is not None  # (a scalar it picks is left open: `dict_method`)
    entries = {name: replace(entry, assumptions=(*entry.assumptions, *resting)) for name, entry in mapping.entries.items()}
    rebuilt = mapping.rebuilt(entries)
    rebuilt.assumed.extend(condition for condition, _ in resting if condition not in rebuilt.assumed)
    return replace(found, kwargs=rebuilt, assumptions=(*found.assumptions, *resting))


def _entry_or_default(reader: Evaluates, node: ast.Call, owner: Val, key: str, frame: Frame) -> Val:
    """`cfg.get(key, default)` of a mapping the reader knows: the entry, or the default where the mapping has no such key."""
    assert owner.kwargs is not None
    entry = owner.kwargs.entries.get(key)
    if entry is not None and not entry.guards:
        return (
            field(reader, owner, key, frame) if isinstance(entry.ref, Kwargs) else read_from(entry.setting, ref=entry.ref)
        )  # a nested dict stays one; a class stays one
    if entry is not None or owner.kwargs.reasons:
        return NOTHING
    default = node.args[1] if len(node.args) > 1 else next((k.value for k in node.keywords if k.arg == "fallback"), None)
    read = reader.evaluate(default, frame) if default is not None else Val(None, span=frame.module.span(node))
    return replace(read, span=read.span or frame.module.span(node))


def _called_with(reader: Evaluates, frame: Frame, key: str) -> bool:
    """Whether a call the reader does not follow may pass `key` to the method's `**kwargs`
    (Archon's `self.generator(..., top_k=self.top_k)` of a `vllmWrapper.__call__`)."""
    function, module = frame.function, frame.module
    if function is None or function in module.tree.body:
        return False
    tree = reader.tree  # type: ignore[attr-defined]
    return called_on_unknown(reader, module, function, tree.nearby_texts(module.path), tree.open_file, key)


def _unbound_parameter(node: ast.expr, frame: Frame) -> bool:
    if not isinstance(node, ast.Name) or frame.args is not None:
        return False
    binding = reaching(frame, node.id)
    function = frame.function
    return binding is not None and binding.kind == "parameter" and function is not None and not function.decorator_list


def _pairs(reader: Evaluates, owner: Val, frame: Frame, values: bool = False) -> Val:
    """`cfg.items()` of a mapping the reader knows whole (a recipe's `{op_name: args}`): its
    (key, value) pairs in order, as `list(...)` and `[0]` read them. A key carries no assumption on;
    for `values`, a mapping that rests on one (the file a command line names) gives values that do."""
    found = owner.kwargs
    if found is None or not found.whole or (found.assumed and not values):
        return NOTHING
    pairs = []
    for key in found.entries:
        value = field(reader, owner, key, frame)
        carried = set(value.kwargs.assumed) if value.kwargs is not None else {text for text, _ in value.assumptions}
        if not set(found.assumed) <= carried:
            return NOTHING
        pairs.append(Val((key, value.value), ref=(Val(key), value)))
    return Val([pair.value for pair in pairs], span=owner.span, ref=tuple(pairs))

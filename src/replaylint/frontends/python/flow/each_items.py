"""Lists whose every item one expression makes, and what a loop over one binds: a comprehension
(`[(messages, dict(TASK_KWARGS, top_k=40)) for i in range(16)]`) stands for a list of items that
all hold what its element holds (its loop names unknown), a slice of it (`requests[i : i + n]`)
for the same, and a loop over either (`for messages, gen_kwargs in batch:`) binds each turn to
such an item (or the element of it the target unpacks), with the writes the loop's body makes
into it before the read (lmms-eval's `if "temperature" not in gen_kwargs: gen_kwargs["temperature"] = 0`).
A list spelt out item by item is read turn by turn instead (`loop_turns`)."""

from __future__ import annotations

import ast
import copy
from dataclasses import replace

from .dicts import as_val, written
from .facts import NOTHING, Val
from .frames import Binding, Evaluates, Frame, reaching
from .module import Placed
from .refs import Each, Engine


def made_each(reader: Evaluates, node: ast.ListComp | ast.GeneratorExp, frame: Frame) -> Val:
    """`[params_for(r) for r in requests]`: a construction each item is made by, the list standing
    for it (`generate(..., sampling_params=[...])`); another item, a list of `Each` of it."""
    # a loop name also bound outside is read as unknown, not as that binding (`model` of Optima's
    # `[(model, os.path.join(root, model)) for model in models]` before its `for model, path in ...`)
    item = reader.evaluate(_unbound(node.elt, node.generators) if rebinds_outer(node.generators, frame) else node.elt, frame)
    if isinstance(item.ref, Engine):
        return Val(ref=(item,))
    return Val(ref=Each(item), span=frame.module.span(node)) if item is not NOTHING else NOTHING


def rebinds_outer(generators: list[ast.comprehension], frame: Frame) -> bool:
    """Whether a comprehension's loop names are also bound outside it: a read of one by name
    (`reader.name`) would give that binding, not the turn's."""
    names = {n.id for generator in generators for n in ast.walk(generator.target) if isinstance(n, ast.Name)}
    return any(reaching(frame, name) is not None for name in names)


class _Unbound(ast.NodeTransformer):
    """An expression with some names replaced by one no statement can bind (read as unknown)."""

    def __init__(self, names: set[str]) -> None:
        self.names = names

    def visit_Name(self, node: ast.Name) -> ast.expr:
        return ast.copy_location(ast.Name(id="<turn>", ctx=node.ctx), node) if node.id in self.names else node


def _unbound(element: ast.expr, generators: list[ast.comprehension]) -> ast.expr:
    names = {n.id for generator in generators for n in ast.walk(generator.target) if isinstance(n, ast.Name)}
    return _Unbound(names).visit(copy.deepcopy(element))


def sliced(owner: Val, node: ast.Subscript) -> Val:
    """`requests[i : i + batch_size]` of a list of `Each`: a list of the same items."""
    return owner if isinstance(node.slice, ast.Slice) and isinstance(owner.ref, Each) else NOTHING


def looped(reader: Evaluates, binding: Binding, name: str, frame: Frame, use: Frame) -> Val:
    """What the loop target `name` holds in any turn of a loop over a list of `Each` (read at the
    loop, `frame`), with the writes into it between the loop's start and `use`."""
    loop = binding.node
    assert isinstance(loop, (ast.For, ast.AsyncFor))
    listed = reader.evaluate(binding.value, frame)
    over = listed.ref
    data = listed.span is not None and not listed.span.path.endswith(".py")  # (a module's list may be grown by code not read)
    if isinstance(over, tuple) and isinstance(loop.target, ast.Name) and len(over) == 1 and data and _from_a_file((listed,), frame):
        return over[0]  # a config file's list of one item (a recipe's one op): the loop runs once, with it
    if isinstance(over, tuple) and isinstance(loop.target, ast.Name) and _from_a_file(over, frame):
        return same_item(over)  # `for model in settings["model_list"]` of a config file's one text
    if not isinstance(over, Each):
        return NOTHING
    held = _unpacked(loop.target, name, over.item)
    if held.kwargs is None or binding.placed is None:
        return held
    until = use.at if frame.module.in_scope(binding.placed, use.scope) and use.scope is frame.scope else None
    mutated = written(reader, held.kwargs, name, frame, _in_turn(frame, binding.placed, loop), until)
    return replace(as_val(mutated, held.span), hops=held.hops, origin=held.origin)


def _in_turn(frame: Frame, placed: Placed, loop: ast.For | ast.AsyncFor) -> Placed:
    """The loop's statement as its body sees it: under the loop's own guard, which holds in the turn read."""
    inner = len(placed.guards)
    for other in frame.module.statements(frame.scope):
        if other.order > placed.order and len(other.guards) > inner and other.guards[inner].loop is loop:
            return Placed(placed.statement, other.guards[: inner + 1], placed.order)
    return placed


def _unpacked(target: ast.expr, name: str, item: Val) -> Val:
    if isinstance(target, ast.Name):
        return item if target.id == name else NOTHING
    parts = item.ref if isinstance(item.ref, tuple) else None
    if not isinstance(target, (ast.Tuple, ast.List)) or parts is None or len(parts) != len(target.elts):
        return NOTHING
    for element, part in zip(target.elts, parts):
        if any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(element)):
            return _unpacked(element, name, part)
    return NOTHING


RANDOM_PICKS = ("random.choice", "random.choices")


def picked(reader: Evaluates, name: str, node: ast.Call, frame: Frame) -> Val:
    """`random.choice(items)` of a list spelt out whose items all hold the same value (arena-hard's
    one endpoint), that item; `random.choices(items)` (one pick), a list of it; else NOTHING."""
    if len(node.args) != 1 or any(k.arg not in ("weights", "k") for k in node.keywords):
        return NOTHING
    if any(k.arg == "k" and not (isinstance(k.value, ast.Constant) and k.value.value == 1) for k in node.keywords):
        return NOTHING
    item = same_item(reader.evaluate(node.args[0], frame).ref, mappings=True)
    if item is NOTHING:
        return NOTHING
    return item if name == "random.choice" else Val([item.value], ref=(item,))


def _from_a_file(items: tuple, frame: Frame) -> bool:
    """Items a config file writes (a list the module spells out is read turn by turn, `loop_turns`)."""
    return all(isinstance(item, Val) and item.span is not None and item.span.path != frame.module.path for item in items)


def same_item(items: object, mappings: bool = False) -> Val:
    """The item of a list spelt out whose items all hold one value (a text, a number; with
    `mappings`, also a mapping), else NOTHING: what any turn of a loop over it binds."""
    if not isinstance(items, tuple) or not items or any(not isinstance(item, Val) or not item.known for item in items):
        return NOTHING
    first = items[0]
    if any(item.value != first.value for item in items[1:]) or (first.kwargs is not None and not mappings):
        return NOTHING
    return first if mappings or isinstance(first.value, (str, int, float)) else NOTHING

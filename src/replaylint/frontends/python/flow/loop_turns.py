"""A construction in the body of a loop over values the tree spells out is read once per turn:
`for row in ROWS: LLM(**dict(zip(HEADER, row)))` makes one engine per row, `for name, preset in
PRESETS.items(): if name == MODE: return LLM(**preset)` the one whose test holds. Each turn
binds the loop's names to the element (or the entry of the dict) it takes, where that value is
decided; a turn whose branches are decided against makes no engine. When a branch stays
undecided in some turn, the loop is not spelt out (`loops`), or it has too many turns, the
construction is read once, its loop names unknown, as before."""

from __future__ import annotations

import ast

from .facts import Entry, Kwargs, Val
from .frames import Binding, Evaluates, Frame
from .loops import reaching_turns
from .module import FUNCTIONS
from .objects import field


def turn_frames(reader: Evaluates, frames: list[Frame]) -> list[Frame]:
    """Each frame, once per turn of the innermost loop its statement sits in."""
    return [turn for frame in frames for turn in _turns(reader, frame)]


def _turns(reader: Evaluates, frame: Frame) -> list[Frame]:
    placed = frame.at
    if placed is None or frame.turn is not None:
        return [frame]
    number = next((n for n in range(len(placed.guards) - 1, -1, -1) if placed.guards[n].loop is not None), None)
    if number is None:
        return [frame]
    loop = placed.guards[number].loop
    assert loop is not None
    if _stops(loop, placed.statement):
        return [frame]
    found = reaching_turns(reader, loop, placed.guards[number + 1 :], frame)  # the branches between the loop and the statement
    return [here for here, _ in found or ()] or [frame]


def _stops(loop: ast.For | ast.AsyncFor, statement: ast.stmt) -> bool:
    """Whether a turn may end the loop or skip the rest of its body other than by `statement`
    itself (`return LLM(**preset)`): which turns reach it would depend on the earlier ones."""
    stops = (ast.Break, ast.Continue, ast.Return, ast.Raise)
    pending = list(loop.body)
    while pending:
        node = pending.pop()
        if node is statement or isinstance(node, (*FUNCTIONS, ast.ClassDef, ast.Lambda)):
            continue
        if isinstance(node, stops):
            return True
        pending.extend(ast.iter_child_nodes(node))
    return False


def turn_value(reader: Evaluates, binding: Binding, name: str, frame: Frame) -> Val | None:
    """What the loop name `name` holds in the turn `frame` reads (None: not a turn of its loop)."""
    if frame.turn is None or frame.turn[0] is not binding.node:
        return None
    held = frame.turn[1].get(name)
    if isinstance(held, Entry):  # `for key, preset in PRESETS.items()`: the entry as the dict holds it
        return field(reader, Val(kwargs=Kwargs({name: held})), name, frame)
    if isinstance(held, str):  # the key of that entry, where the mapping writes it
        entry = next((e for e in frame.turn[1].values() if isinstance(e, Entry) and e.setting.name == held), None)
        return Val(held, span=entry.setting.span if entry is not None else None)
    return reader.evaluate(*held) if held is not None else None

"""`SEP.join(items)` of texts: a list or tuple spelt out, or a comprehension over items the reader
knows (GLM-4's `" ".join(f"--{key.replace('_', '-')} {value}" for key, value in SERVER_ARGS.items())`
over a dict it knows whole, or over a tuple spelt out), each turn's element read with the
comprehension's names bound to that turn's item. The result keeps its pieces (each item and
separator where it is written) for a shell to split; an item not known stays a piece not known
(it may be any number of words), and an item that is not a text, a filter that cannot be decided
or more turns than the reader follows leave the whole text unknown."""

from __future__ import annotations

import ast
from dataclasses import replace

from .comprehension_turns import turn_items
from .facts import NOTHING, Val
from .frames import Binding, Evaluates, Frame
from .loop_turns import turn_value

_MAX_TEXT = 4096  # characters of a text the reader builds


def joined(reader: Evaluates, node: ast.Call, frame: Frame) -> Val | None:
    """`separator.join(items)` (`node.func` an attribute `join`); None: the separator is not a
    known text (`shlex.join(words)`, a module's function)."""
    assert isinstance(node.func, ast.Attribute)
    separator = reader.evaluate(node.func.value, frame)
    if not isinstance(separator.value, str):
        return None
    if len(node.args) != 1 or node.keywords:
        return NOTHING
    items = turn_items(reader, node.args[0], frame)
    if items is None or any(item.known and not isinstance(item.value, str) for item in items):
        return NOTHING
    pieces: list[Val] = []
    for index, item in enumerate(items):
        pieces += [separator, item] if index else [item]
    span = frame.module.span(node)
    if not all(item.known for item in items):
        return Val(span=span, parts=tuple(pieces))
    text = separator.value.join(item.value for item in items)
    if len(text) > _MAX_TEXT:
        return NOTHING
    assumptions = tuple(dict.fromkeys(a for item in items for a in item.assumptions))
    return replace(NOTHING, value=text, span=span, parts=tuple(pieces), assumptions=assumptions)


def comprehension_name(reader: Evaluates, name: str, frame: Frame) -> Val | None:
    """What a comprehension's name holds in the turn `frame` reads (None: not one of its names)."""
    if frame.turn is None or not isinstance(frame.turn[0], ast.comprehension):
        return None
    return turn_value(reader, Binding("each", node=frame.turn[0]), name, frame)

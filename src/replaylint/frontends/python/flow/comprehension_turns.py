"""The items a comprehension makes, turn by turn (`" ".join(f"--{k} {v}" for k, v in ARGS.items())`,
`any(s.startswith(prefix) for s in words)`): each turn's element read with the comprehension's
names bound to that turn's item, for a comprehension with one `for` over items the reader knows;
or the items of a list or tuple spelt out, or of a list a name holds."""

from __future__ import annotations

import ast
from dataclasses import replace

from .each_items import rebinds_outer
from .facts import Val
from .frames import Evaluates, Frame
from .loops import turns_of

MAX_TURNS = 64  # turns of a comprehension read one by one; more leave the items unknown


def turn_items(reader: Evaluates, node: ast.expr, frame: Frame) -> list[Val] | None:
    """The items of a list or tuple spelt out, or each turn's element of a comprehension over items
    the reader knows (those its filters let through); None: not known item by item."""
    if isinstance(node, (ast.List, ast.Tuple)):
        read = reader.evaluate(node, frame)
        return list(read.ref) if isinstance(read.ref, tuple) else None
    if isinstance(node, (ast.ListComp, ast.GeneratorExp)):
        return _turns(reader, node, frame)
    if isinstance(node, ast.Name):  # a list bound to a name (`unknown` of `args, unknown = parser.parse_known_args()`)
        read = reader.evaluate(node, frame)
        listed = isinstance(read.value, list) and isinstance(read.ref, tuple) and all(isinstance(item, Val) for item in read.ref)
        return list(read.ref) if listed else None
    return None


def _turns(reader: Evaluates, node: ast.ListComp | ast.GeneratorExp, frame: Frame) -> list[Val] | None:
    """The element of each turn of a comprehension with one `for` over items the reader knows."""
    if len(node.generators) != 1 or frame.turn is not None:
        return None  # inside a loop's turn, its names would be hidden by the comprehension's
    generator = node.generators[0]
    if generator.is_async or rebinds_outer(node.generators, frame):
        return None
    turns = turns_of(reader, generator, frame)  # type: ignore[arg-type]  # a target and an iterable, as a loop's
    if turns is None or len(turns) > MAX_TURNS:
        return None
    items = []
    for turn in turns:
        here = replace(frame, turn=(generator, turn))
        tests = [reader.evaluate(test, here).value for test in generator.ifs]
        if any(not isinstance(test, bool) for test in tests):
            return None
        if all(tests):
            items.append(reader.evaluate(node.elt, here))
    return items

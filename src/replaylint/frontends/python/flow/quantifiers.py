"""`any(...)` and `all(...)` of a comprehension over items the reader knows, or of a list spelt
out (instructlab's `contains_argument(prefix, args)`: `any(s == prefix or s.startswith(prefix +
"=") for s in args)`, which decides whether a launcher adds `--port` itself), each turn's test read
with the comprehension's names bound to that turn's item. A turn whose truth is not known leaves
the result unknown, unless a known turn settles it (a true one for `any`, a false one for `all`)."""

from __future__ import annotations

import ast
from dataclasses import replace

from .comprehension_turns import MAX_TURNS, turn_items
from .each_items import rebinds_outer
from .facts import NOTHING, Val
from .frames import Evaluates, Frame

QUANTIFIERS = ("any", "all")


def quantified(reader: Evaluates, name: str, node: ast.Call, frame: Frame) -> Val:
    if len(node.args) != 1 or node.keywords or isinstance(node.args[0], ast.Starred):
        return NOTHING
    items = turn_items(reader, node.args[0], frame)
    items = _over_texts(reader, node.args[0], frame) if items is None else items
    if items is None:
        return NOTHING
    settles = name == "any"  # the truth one turn needs to settle the whole
    open_turn = False
    for item in items:
        if not item.known or item.ref is not None or item.kwargs is not None:
            open_turn = True
        elif bool(item.value) is settles:
            return Val(settles, assumptions=item.assumptions)
    if open_turn:
        return NOTHING
    return Val(not settles, assumptions=tuple(dict.fromkeys(a for item in items for a in item.assumptions)))


def _over_texts(reader: Evaluates, node: ast.expr, frame: Frame) -> list[Val] | None:
    """Each turn's test of a comprehension over a list of texts the reader knows, not spelt out
    (a parameter: `for s in args`), its name bound to the turn's text."""
    if not isinstance(node, (ast.GeneratorExp, ast.ListComp)) or len(node.generators) != 1 or frame.turn is not None:
        return None
    generator = node.generators[0]
    if generator.is_async or generator.ifs or not isinstance(generator.target, ast.Name) or rebinds_outer(node.generators, frame):
        return None
    read = reader.evaluate(generator.iter, frame)
    texts = read.value
    if not isinstance(texts, list) or len(texts) > MAX_TURNS or not all(isinstance(text, str) for text in texts):
        return None
    tests = [reader.evaluate(node.elt, replace(frame, turn=(generator, {generator.target.id: text}))) for text in texts]
    return [replace(test, assumptions=tuple(dict.fromkeys((*read.assumptions, *test.assumptions)))) for test in tests]

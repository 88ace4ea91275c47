"""A client taken from a list of clients written in the module (a round robin over replay servers):
`next(pool)` of a `pool = itertools.cycle(CLIENTS)` bound outside the function that takes from it
(each call takes the next item, so every item is reached), `random.choice(CLIENTS)` and
`CLIENTS[i % len(CLIENTS)]` (any item), `CLIENTS[0]`, and `next(itertools.cycle(CLIENTS))` or
`next(iter(CLIENTS))` made where they are taken, or a cycle taken from in the scope that makes it
(the first item). `CLIENTS` is a list or tuple written item by item, a comprehension over a list
the reader knows whole (`[OpenAI(base_url=url, api_key="EMPTY") for url in SERVERS]`: each item
read with its `url`), or a name bound once to one of those and not changed in place; a list built
at run time, or changed later (`CLIENTS.append(...)`, `CLIENTS += ...`), is not read."""

from __future__ import annotations

import ast
import copy
from dataclasses import replace
from typing import Any

from ....model import UNKNOWN
from ..asts import walk
from .anonymous import Made as Written, as_function
from .bodies import bound_once, text
from .facts import Val
from .frames import Frame, reaching
from .loops import changed_in_place
from .module import Module, Placed, global_writes
from .reader import Reader
from .refs import Qualified
from .urls import url_address

Items = list[tuple[ast.expr, Frame]]

_CYCLES = ("itertools.cycle",)
_CHOICES = ("random.choice",)
_MAX_ITEMS = 8  # items of a list read one by one


def every_item(reader: Reader, node: ast.expr | None, frame: Frame) -> bool:
    """Whether the client `node` is (through a name bound once) takes turns over the items of a
    list, or picks any of them: a request it sends reaches each item's server."""
    return _taken(reader, _followed(node, frame), frame, items=False) == "every"


def taken_items(reader: Reader, node: ast.expr, frame: Frame) -> Items | None:
    """The items of a list the client `node` is taken from, each with the frame it is read in
    (one item when the pick is always the first); None when `node` is no pick of a list read whole."""
    found = _taken(reader, node, frame, items=True)
    return found if isinstance(found, list) else None


def _followed(node: ast.expr | None, frame: Frame) -> ast.expr | None:
    if isinstance(node, ast.Name):
        return bound_once(frame, node.id)
    return node


def _taken(reader: Reader, node: ast.expr | None, frame: Frame, items: bool) -> Items | str | None:
    """What a pick gives: the items (`items`), else "every" or "first"; None when `node` is no pick."""
    if isinstance(node, ast.Subscript):
        how = _indexed(node)
        listed = node.value
    elif isinstance(node, ast.Call) and len(node.args) == 1 and not node.keywords and _called(reader, node, frame, _CHOICES):
        how, listed = "every", node.args[0]
    elif isinstance(node, ast.Call) and _is_next(node, frame):
        how, listed = _next_of(reader, node.args[0], frame)
    else:
        return None
    if how is None or listed is None:
        return None
    if not items:
        return how if how != "first" else None
    found = _listed(reader, listed, frame)
    if not found or isinstance(how, int) and how >= len(found):
        return None
    return found if how == "every" else [found[0 if how == "first" else how]]  # type: ignore[index]


def _indexed(node: ast.Subscript) -> int | str | None:
    """`CLIENTS[1]`: that item; `CLIENTS[i % len(CLIENTS)]`: any."""
    index = node.slice
    if isinstance(index, ast.Constant) and isinstance(index.value, int) and not isinstance(index.value, bool) and index.value >= 0:
        return index.value
    length = index.right if isinstance(index, ast.BinOp) and isinstance(index.op, ast.Mod) else None
    counted = isinstance(length, ast.Call) and isinstance(length.func, ast.Name) and length.func.id == "len" and len(length.args) == 1
    return "every" if counted and ast.dump(length.args[0]) == ast.dump(node.value) else None  # type: ignore[union-attr]


def _is_next(node: ast.Call, frame: Frame) -> bool:
    named = isinstance(node.func, ast.Name) and node.func.id == "next" and reaching(frame, "next") is None
    return named and len(node.args) == 1 and not node.keywords


def _next_of(reader: Reader, given: ast.expr, frame: Frame) -> tuple[str | None, ast.expr | None]:
    """`next(pool)`: of a cycle made in another scope, any item; made here (or an `iter`), the first."""
    if isinstance(given, ast.Call) and len(given.args) == 1 and not given.keywords:
        iterated = isinstance(given.func, ast.Name) and given.func.id == "iter" and reaching(frame, "iter") is None
        return ("first", given.args[0]) if iterated or _called(reader, given, frame, _CYCLES) else (None, None)
    if not isinstance(given, ast.Name):
        return None, None
    found = _statement_of(frame.module, given, frame.scope)
    scope = found[0] if found is not None else frame.scope
    if scope is not frame.scope:
        frame = Frame(frame.module, scope)
    made = bound_once(frame, given.id) if not global_writes(frame.module, given.id) else None
    if not isinstance(made, ast.Call) or not _called(reader, made, frame, _CYCLES) or len(made.args) != 1 or made.keywords:
        return None, None
    here = scope is frame.module.tree or bool(frame.module.binders(scope, given.id))
    return ("first" if here else "every"), made.args[0]


def _called(reader: Reader, node: ast.Call, frame: Frame, names: tuple[str, ...]) -> bool:
    function = reader.evaluate(node.func, frame).ref
    return isinstance(function, Qualified) and function.name in names


def _listed(reader: Reader, node: ast.expr, frame: Frame) -> Items | None:
    """The items of a list written item by item or made by a comprehension, or of the name bound once to one."""
    if isinstance(node, ast.Name):
        text = frame.module.source.text
        if changed_in_place(text, node.id) or f"{node.id} +=" in text or global_writes(frame.module, node.id):
            return None
        node = bound_once(frame, node.id)  # type: ignore[assignment]
    if isinstance(node, (ast.List, ast.Tuple)) and not any(isinstance(e, ast.Starred) for e in node.elts):
        return [(element, frame) for element in node.elts[:_MAX_ITEMS]] if len(node.elts) <= _MAX_ITEMS else None
    if isinstance(node, (ast.ListComp, ast.GeneratorExp)):
        return _made(reader, node, frame)
    return None


def _made(reader: Reader, node: ast.ListComp | ast.GeneratorExp, frame: Frame) -> Items | None:
    """Each item of a comprehension over a list the reader knows whole, read with its loop name bound."""
    generator = node.generators[0] if len(node.generators) == 1 else None
    if generator is None or generator.ifs or generator.is_async or not isinstance(generator.target, ast.Name):
        return None
    found = _statement_of(frame.module, node, frame.scope)
    if found is None:
        return None
    scope, placed = found
    around = frame if scope is frame.scope else Frame(frame.module, scope, None, None, placed)
    over = reader.evaluate(generator.iter, around.reading(placed))
    if not isinstance(over.value, list) or not isinstance(over.ref, tuple) or not 0 < len(over.ref) <= _MAX_ITEMS:
        return None
    function = as_function(frame.module, node, placed.statement, Written(node, scope, around.cls, placed))
    at = frame.module.statements(function)[0]
    inner = Frame(
        frame.module, function, around.cls, None, at, frame.depth, frame.stack, outer=around if scope is not frame.module.tree else None
    )
    if not all(isinstance(item, Val) for item in over.ref):
        return None
    return [(node.elt, replace(inner, args={generator.target.id: item})) for item in over.ref]


def _statement_of(module: Module, node: ast.expr, scope: ast.AST) -> tuple[ast.AST, Placed] | None:
    """The scope (the one read, else the module) and its statement whose expression holds `node`."""
    for where in (scope, module.tree):
        for placed in module.statements(where):
            if any(inner is node for inner in walk(placed.statement)):
                return where, placed
    return None


_PICKED = "<picked>"
_MAX_DEPTH = 4  # names followed to the pick in a text


def picked_addresses(reader: Reader, url: Any, given: ast.expr | None, frame: Frame) -> list[tuple[str, int, str]]:
    """Each address a URL not known whole (`url`) takes in turn (`f"{next(_servers)}/v1/completions"`)."""
    picked = picked_texts(reader, given, frame) if url is UNKNOWN else None
    addresses = [url_address(each) for each in picked or ()]
    return list(dict.fromkeys(addresses)) if addresses and None not in addresses else []  # type: ignore[arg-type]


def picked_texts(reader: Reader, node: ast.expr | None, frame: Frame) -> list[str] | None:
    """The texts an address gives with each item of the list of texts a value in it is taken
    from (`base_url=next(_urls)`, `f"{random.choice(SERVERS)}/v1/chat/completions"`, or a name bound
    once to either), when every one is known; None without one pick."""
    found: list[Items] = []
    written = _inlined(reader, node, frame, found) if node is not None else None
    if written is None or len(found) != 1:
        return None
    texts = []
    for item, where in found[0]:
        said = text(reader, item, where)
        if not isinstance(said, str):
            return None
        given = ast.fix_missing_locations(_Placing(said).visit(copy.deepcopy(written)))
        whole = text(reader, given, frame)
        if not isinstance(whole, str):
            return None
        texts.append(whole)
    return texts


def _inlined(reader: Reader, node: ast.expr, frame: Frame, found: list[Items], depth: int = 0) -> ast.expr:
    """`node` with the names bound once to a text's parts written in, and a pick (`found`) as `_PICKED`."""
    if isinstance(node, (ast.Call, ast.Subscript)):
        items = taken_items(reader, node, frame)
        if items is not None:
            found.append(items)
            return ast.copy_location(ast.Name(_PICKED, ast.Load()), node)
    if isinstance(node, ast.Name) and depth < _MAX_DEPTH:
        value = bound_once(frame, node.id)
        if isinstance(value, (ast.Call, ast.Subscript, ast.JoinedStr, ast.BinOp)):
            before = len(found)
            inner = _inlined(reader, value, frame, found, depth + 1)
            return inner if len(found) > before or not isinstance(value, (ast.Call, ast.Subscript)) else node
    if isinstance(node, ast.JoinedStr):
        parts = [
            ast.copy_location(ast.FormattedValue(_inlined(reader, p.value, frame, found, depth), p.conversion, p.format_spec), p)
            if isinstance(p, ast.FormattedValue)
            else p
            for p in node.values
        ]
        return ast.copy_location(ast.JoinedStr(parts), node)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = (_inlined(reader, side, frame, found, depth) for side in (node.left, node.right))
        return ast.copy_location(ast.BinOp(left, node.op, right), node)
    return node


class _Placing(ast.NodeTransformer):
    """The pick of an address replaced by one item's text."""

    def __init__(self, said: str) -> None:
        self.said = said

    def visit_Name(self, node: ast.Name) -> ast.expr:
        return ast.copy_location(ast.Constant(self.said), node) if node.id == _PICKED else node

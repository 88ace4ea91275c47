"""A request sent in a function nested in a method, read at its calls there, and the objects a class
keeps in a dict on `self` and reads back (olmo-eval's `AsyncVLLMBackend`: `add_request` stores
`self._pending_requests[request_id] = (request.prompt, vllm_params)`; `stream_results` calls its nested
`process_single_request(rid, prompt, params)` for `rid, (prompt, params) in self._pending_requests.items()`,
which sends `self.engine.generate(prompt, params, request_id)`). The comprehension's names are bound, turn by
turn, to what each item store of the class wrote, read where the storing method runs (with its callers'
arguments). Each store is an item the dict holds when it is read back; a store the reader cannot follow
leaves its turn's names unknown, never another's."""

from __future__ import annotations

import ast
from dataclasses import replace
from typing import Callable

from ..asts import walk
from .callsites import Call, calls, self_attribute
from .engines import MAX_SITES
from .frames import Frame
from .module import FUNCTIONS, Module
from .reader import Function, Reader, bind

FramesOf = Callable[[Call], list[Frame]]  # the frames a method's statement is read in (`requests.request_frames`)
_READS = ("items", "values")


def nested_frames(reader: Reader, module: Module, call: Call, frames_of: FramesOf) -> list[Frame] | None:
    """The frames of a request in a function nested in a method, one per call of it by name in that
    method (and per item of a kept dict its arguments are read from); None: not such a function, or
    no such call."""
    nested, cls = call.scope, call.cls
    outer = module.enclosing(nested) if isinstance(nested, FUNCTIONS) and cls is not None else None
    if outer is None or outer not in cls.body:  # type: ignore[union-attr]
        return None
    plain = Frame(module, nested, cls, None, call.placed)
    defined = next((placed for placed in module.statements(outer) if placed.statement is nested), None)
    found = []
    for site in calls(module, (f"{nested.name}(",)):  # type: ignore[union-attr]
        if site.scope is not outer or not (isinstance(site.node.func, ast.Name) and site.node.func.id == nested.name):  # type: ignore[union-attr]
            continue
        for caller in frames_of(site)[:MAX_SITES]:
            for here in _turns(reader, module, site, caller, frames_of) or [caller]:
                args = bind(reader, Function(module, nested), site.node, here, skip_self=False)  # type: ignore[arg-type]
                found.append(replace(plain, args=args, outer=here.reading(defined) if defined is not None else None))  # its closure too
    return found[:MAX_SITES] or None


def _turns(reader: Reader, module: Module, site: Call, caller: Frame, frames_of: FramesOf) -> list[Frame]:
    """The caller's frame once per item store of the kept dict a comprehension around the call reads
    (`for rid, (prompt, params) in self._pending_requests.items()`), its names bound to what the store wrote."""
    generator = _generator_around(site)
    kept = _kept_attribute(generator.iter) if generator is not None else None
    if kept is None or site.cls is None:
        return []
    turns = []
    for method, placed, store in _stores(module, site.cls, kept[0]):
        for at in frames_of(Call(site.node, placed, method, site.cls))[:MAX_SITES]:
            names = _bound(generator.target, store, kept[1], at)  # type: ignore[union-attr]
            turns.append(replace(caller, turn=(generator, names)))
    return turns[:MAX_SITES]


def _generator_around(site: Call) -> ast.comprehension | None:
    """The one `for` of the comprehension whose element holds the call."""
    for node in walk(site.placed.statement):
        if isinstance(node, (ast.ListComp, ast.SetComp, ast.GeneratorExp)) and len(node.generators) == 1:
            if any(inner is site.node for inner in walk(node.elt)) and not node.generators[0].is_async:
                return node.generators[0]
    return None


def _kept_attribute(iterable: ast.expr) -> tuple[str, str] | None:
    """(attribute, `items` or `values`) of `self.attr.items()`."""
    func = iterable.func if isinstance(iterable, ast.Call) and not iterable.args else None
    held = func.value if isinstance(func, ast.Attribute) and func.attr in _READS else None
    attr = self_attribute(held) if held is not None else None
    return (attr, func.attr) if attr is not None else None  # type: ignore[union-attr]


def _stores(module: Module, cls: ast.ClassDef, attr: str) -> list:
    """(method, placed statement, `self.attr[key] = value`) of each item store of the class's methods."""
    found = []
    for method in (m for m in cls.body if isinstance(m, FUNCTIONS)):
        for placed in module.statements(method):
            statement = placed.statement
            if isinstance(statement, ast.Assign) and len(statement.targets) == 1 and _item_of(statement.targets[0], attr):
                found.append((method, placed, statement))
    return found


def _item_of(target: ast.expr, attr: str) -> bool:
    return isinstance(target, ast.Subscript) and self_attribute(target.value) == attr


def _bound(target: ast.expr, store: ast.Assign, read: str, at: Frame) -> dict[str, tuple[ast.expr, Frame]]:
    """The comprehension's names with what the store wrote: the key and the value, a tuple's items by place."""
    key = store.targets[0].slice  # type: ignore[attr-defined]
    pairs = [(target, store.value)]
    if read == "items":
        if not (isinstance(target, ast.Tuple) and len(target.elts) == 2):
            return {}
        pairs = [(target.elts[0], key), (target.elts[1], store.value)]
    names = {}
    for name, value in pairs:
        if isinstance(name, ast.Tuple) and isinstance(value, ast.Tuple) and len(name.elts) == len(value.elts):
            pairs += list(zip(name.elts, value.elts))
        elif isinstance(name, ast.Name):
            names[name.id] = (value, at)
    return names

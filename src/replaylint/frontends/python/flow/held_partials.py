"""Calls of a module-level function through a `functools.partial` of it that reaches the call as
a parameter (data-juicer: `prepare_model` returns `partial(MODEL_FUNCTION_MAPPING[model_type],
**model_kwargs)`, and `get_model(model_key)` calls `model_key()`): each call, read where its
function is called from, passes the partial's arguments before its own. The partial is
recognised by what the parameter holds there, so a call of another callable is never taken."""

from __future__ import annotations

import ast
import re
from typing import Callable, Iterator

from ..asts import walk
from .callsites import Call
from .frames import Frame, parameters
from .module import FUNCTIONS, Module
from .reader import Reader
from .refs import Function, Partial
from .tree import Tree

_MAX_CALLS = 4  # calls of parameters looked at per module


def held_partial_calls(
    reader: Reader, module: Module, function: ast.FunctionDef | ast.AsyncFunctionDef, frames_of: Callable[[Call], list[Frame]]
) -> Iterator[tuple[Call, Frame, Partial]]:
    """(the call of a parameter, the frame it is read in, the partial of `function` it holds there)."""
    following = reader.tree.following_partials
    if id(function) in following:
        return  # reading where a parameter call is made asked for this function's calls again
    following.add(id(function))
    try:
        for site in _parameter_calls(reader.tree, module)[:_MAX_CALLS]:
            for frame in frames_of(site):
                held = reader.evaluate(site.node.func, frame).ref
                if isinstance(held, Partial) and isinstance(held.func.ref, Function) and held.func.ref.node is function:
                    yield site, frame, held
    finally:
        following.discard(id(function))


def _parameter_calls(tree: Tree, module: Module) -> list[Call]:
    """The calls `p(...)` in the module's top-level functions whose `p` is a parameter of the function
    (once per module and check: each engine function of the module asks)."""
    kept = tree.parameter_calls.get(id(module.tree))
    if kept is not None and kept[0] is module.tree:
        return kept[1]
    found: dict[int, Call] = {}
    for scope in (node for node in module.tree.body if isinstance(node, FUNCTIONS)):
        names = {param.arg for param in parameters(scope)}
        if not _may_call(module.text(scope), names):
            continue
        body = {id(statement) for statement in scope.body}
        for placed in module.statements(scope):
            if id(placed.statement) not in body:
                continue  # walked with the statement of the body it is in, whose place a call takes
            for node in walk(placed.statement):
                if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in names:
                    found.setdefault(id(node), Call(node, placed, scope, None))
    tree.parameter_calls[id(module.tree)] = (module.tree, list(found.values()))
    return tree.parameter_calls[id(module.tree)][1]


def _may_call(text: str, names: set[str]) -> bool:
    """Whether a function's text may call one of `names` (`p(`, `p (`, `(p)(`): most functions call no parameter,
    and the text says so without a walk of their statements."""
    return bool(names) and re.search(rf"\b(?:{'|'.join(map(re.escape, names))})\b[\s)\\]*\(", text) is not None

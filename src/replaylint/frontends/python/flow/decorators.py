"""Calls of a function wrapped by a decorator of the tree: `@with_stop_processors` above
`def make_llm(model, **engine_kwargs)`, whose wrapper adjusts the keyword arguments
(`kwargs.setdefault("logits_processors", [...])`) before it calls the function. A call of
`make_llm(...)` is the wrapper's: its arguments are bound to the wrapper's parameters, and the
function gets what the wrapper's call of it passes, after the wrapper's writes."""

from __future__ import annotations

import ast

from .binding import bind
from .facts import Val
from .frames import Evaluates, Frame, parameters
from .module import FUNCTIONS, Placed
from .refs import Function

MAX_DEPTH = 6  # as the reader's calls


def bind_called(reader: Evaluates, function: Function, node: ast.Call, frame: Frame) -> dict[str, Val]:
    """`bind`, through the wrapper of the function's one decorator of the tree, if it has one."""
    through = _wrapper_call(reader, function, node, frame)
    if through is None:
        return bind(reader, function, node, frame)
    call, wrapper_frame = through
    return bind(reader, function, call, wrapper_frame)


def _wrapper_call(reader: Evaluates, function: Function, node: ast.Call, frame: Frame) -> tuple[ast.Call, Frame] | None:
    if len(function.node.decorator_list) != 1 or frame.depth >= MAX_DEPTH:
        return None
    module = function.module
    decorator = reader.evaluate(function.node.decorator_list[0], Frame(module, module.tree)).ref
    if not isinstance(decorator, Function) or not parameters(decorator.node):
        return None
    wrapper = _returned_function(decorator.node)
    if wrapper is None:
        return None
    wrapped = parameters(decorator.node)[0].arg
    placed = _calling(decorator.module.statements(wrapper), wrapped)
    if placed is None:
        return None
    home = decorator.module
    args = bind(reader, Function(home, wrapper), node, frame)
    stack = (*frame.stack, id(wrapper))
    wrapper_frame = Frame(home, wrapper, None, args, placed, frame.depth + 1, stack)
    call = next(n for n in ast.walk(placed.statement) if _calls(n, wrapped))
    return call, wrapper_frame  # type: ignore[return-value]


def _returned_function(decorator: ast.FunctionDef | ast.AsyncFunctionDef) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
    """The function the decorator defines and returns (`def wrapper(*args, **kwargs): ...`, `return wrapper`)."""
    inner = {statement.name: statement for statement in decorator.body if isinstance(statement, FUNCTIONS)}
    returns = [s for s in decorator.body if isinstance(s, ast.Return) and isinstance(s.value, ast.Name)]
    if len(returns) != 1:
        return None
    return inner.get(returns[0].value.id)  # type: ignore[union-attr]


def _calling(statements: list[Placed], wrapped: str) -> Placed | None:
    """The wrapper's one statement that calls the wrapped function (not under a branch)."""
    found = [placed for placed in statements if any(_calls(node, wrapped) for node in ast.walk(placed.statement))]
    return found[0] if len(found) == 1 and not found[0].guards else None


def _calls(node: ast.AST, name: str) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == name

"""What a loop over a generator of the tree binds: `for kwargs in engine_configs(model):` holds
what the generator yields, its one `yield` read with the call's arguments bound (a value its own
loop varies, `tensor_parallel_size=tp`, is unknown; the keys are there). So does `with
replay_engine(model) as engine:` (and `async with`) of a `@contextmanager` or
`@asynccontextmanager` function of the tree: what it yields is what the `with` binds."""

from __future__ import annotations

import ast

from .binding import bind
from .facts import NOTHING, Val
from .frames import Evaluates, Frame
from .module import FUNCTIONS
from .refs import Function

MAX_DEPTH = 6  # as the reader's calls


def yielded(reader: Evaluates, node: ast.expr, frame: Frame) -> Val:
    if not isinstance(node, ast.Call) or frame.depth >= MAX_DEPTH:
        return NOTHING
    function = reader.evaluate(node.func, frame).ref
    if not isinstance(function, Function) or id(function.node) in frame.stack:
        return NOTHING
    if sum(isinstance(item, (ast.Yield, ast.YieldFrom)) for item in _own_nodes(function.node)) != 1:
        return NOTHING
    statements = function.module.statements(function.node)
    found = [p for p in statements if isinstance(p.statement, ast.Expr) and isinstance(p.statement.value, ast.Yield)]
    if len(found) != 1 or found[0].statement.value.value is None:  # type: ignore[attr-defined]
        return NOTHING
    args = bind(reader, function, node, frame)
    inner = Frame(function.module, function.node, function.cls, args, None, frame.depth + 1, (*frame.stack, id(function.node)))
    return reader.evaluate(found[0].statement.value.value, inner.reading(found[0]))  # type: ignore[attr-defined]


def entered(reader: Evaluates, node: ast.expr, frame: Frame) -> Val:
    """What `with node as name:` binds, for a call of a context-manager function of the tree."""
    function = reader.evaluate(node.func, frame).ref if isinstance(node, ast.Call) else None
    if not isinstance(function, Function) or not any(_context_manager(d) for d in function.node.decorator_list):
        return NOTHING
    return yielded(reader, node, frame)


def _context_manager(decorator: ast.expr) -> bool:
    name = decorator.attr if isinstance(decorator, ast.Attribute) else decorator.id if isinstance(decorator, ast.Name) else ""
    return name in ("contextmanager", "asynccontextmanager")


def _own_nodes(function: ast.AST):
    """The nodes of a function's body, not those of the functions and classes it defines."""
    pending = list(ast.iter_child_nodes(function))
    while pending:
        node = pending.pop()
        yield node
        if not isinstance(node, (*FUNCTIONS, ast.ClassDef, ast.Lambda)):
            pending.extend(ast.iter_child_nodes(node))

"""A list of Ray actors kept on `self` and grown by another method (fairseq2's `RemoteVllmModel`:
`self.vllm_workers = []` in `__init__`, then `for i in range(n): self.setup_replica(i, args)`, whose
`self.vllm_workers.append(worker)` appends the actor `setup_vllm_worker` makes): a list every item of
which is that actor (`Each`), as `actor_lists` reads a local list grown in a loop. Any other change of
the list, an append under a branch, or a method called other than once in `__init__`'s loop, is not read so."""

from __future__ import annotations

import ast

from .binding import bind
from .facts import NOTHING, Val
from .frames import Evaluates, Frame
from .module import FUNCTIONS
from .refs import Actor, Each, Function


def grown_by_method(reader: Evaluates, attr: str, read: Val, init: Frame) -> Val:
    """`self.attr = []` in `__init__` (`init`, its frame), grown only by one method's unguarded
    `self.attr.append(actor)` that `__init__` calls once, in a loop (fairseq2's `RemoteVllmModel`:
    `for i in range(n): self.setup_replica(i, args)`, whose `self.vllm_workers.append(worker)`):
    a list of that actor (`Each`), read after `__init__`; else NOTHING."""
    cls, module = init.cls, init.module
    if read.value != [] or cls is None or f"self.{attr}." not in module.source.text:
        return NOTHING
    methods = [m for m in cls.body if isinstance(m, FUNCTIONS)]
    changes = [node for m in methods for node in ast.walk(m) if _changes(node, attr)]
    appends = [(m, p) for m in methods for p in module.statements(m) if _appended(p.statement, attr) is not None]
    if len(appends) != 1 or len(changes) != 2 or appends[0][0].name == "__init__" or appends[0][1].guards:
        return NOTHING  # another change, or an append under a branch
    method, placed = appends[0]
    simple = [(m, p) for m in methods for p in module.statements(m) if not hasattr(p.statement, "body")]  # the innermost statement's
    calls = [(m, p, node) for m, p in simple for node in ast.walk(p.statement) if _calls_own(node, method.name)]
    if len(calls) != 1 or calls[0][0] is not init.scope or not any(guard.loop is not None for guard in calls[0][1].guards):
        return NOTHING
    _, site, node = calls[0]
    args = bind(reader, Function(module, method, cls), node, init.reading(site))
    item = reader.evaluate(_appended(placed.statement, attr), Frame(module, method, cls, args, placed, init=init.args))  # type: ignore[arg-type]
    return Val(ref=Each(item), span=read.span) if isinstance(item.ref, Actor) else NOTHING


def _changes(node: ast.AST, attr: str) -> bool:
    """`self.attr = ...`, `self.attr[i] = ...`, `del self.attr[i]`, `self.attr += ...`, `self.attr.m(...)`, `f(self.attr)`."""
    if isinstance(node, (ast.Attribute, ast.Subscript)) and not isinstance(node.ctx, ast.Load):
        return _is_self_attr(node if isinstance(node, ast.Attribute) else node.value, attr)
    if isinstance(node, ast.Call):
        owner = node.func.value if isinstance(node.func, ast.Attribute) else None
        return (owner is not None and _is_self_attr(owner, attr)) or any(_is_self_attr(a, attr) for a in node.args)
    return False


def _is_self_attr(node: ast.AST, attr: str) -> bool:
    return isinstance(node, ast.Attribute) and node.attr == attr and isinstance(node.value, ast.Name) and node.value.id == "self"


def _appended(statement: ast.stmt, attr: str) -> ast.expr | None:
    """What `self.attr.append(x)` as a statement of its own appends."""
    call = statement.value if isinstance(statement, ast.Expr) else None
    if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr == "append"):
        return None
    return call.args[0] if _is_self_attr(call.func.value, attr) and len(call.args) == 1 and not call.keywords else None


def _calls_own(node: ast.AST, name: str) -> bool:
    return (
        isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == name and _is_name(node.func.value, "self")
    )


def _is_name(node: ast.AST, name: str) -> bool:
    return isinstance(node, ast.Name) and node.id == name

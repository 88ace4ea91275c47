"""Names a module's top level binds through `globals().update(mapping)` (CURE's sample.py:
`globals().update(vars(args))`, then `temp` read in a worker function): each the mapping's key,
where the mapping is known whole there. A name the mapping may hold unseen, an update under a
branch or more than one update leaves the name unknown; a read at the top level before the update
runs is no read of it."""

from __future__ import annotations

import ast

from .facts import NOTHING, Val
from .frames import Evaluates, Frame
from .objects import field


def globals_written(reader: Evaluates, name: str, frame: Frame) -> Val:
    """`name`, free in the module, as the module's `globals().update(...)` binds it (NOTHING: not known)."""
    module = frame.module
    if "globals().update(" not in module.source.text:
        return NOTHING
    updates = [placed for placed in module.statements(module.tree) if _updates_globals(placed.statement)]
    if len(updates) != 1 or updates[0].guards:
        return NOTHING
    update = updates[0]
    if frame.scope is module.tree and (frame.at is None or frame.at.order <= update.order):
        return NOTHING  # read at the top level before the update runs
    mapping = reader.evaluate(update.statement.value.args[0], Frame(module, module.tree, at=update))  # type: ignore[attr-defined]
    if mapping.kwargs is None and mapping.ref is None:
        return NOTHING
    return field(reader, mapping, name, frame).via(module.span(update.statement))


def _updates_globals(statement: ast.stmt) -> bool:
    """`globals().update(mapping)` as a statement of its own."""
    call = statement.value if isinstance(statement, ast.Expr) else None
    if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr == "update"):
        return False
    owner = call.func.value
    given = len(call.args) == 1 and not call.keywords
    return given and isinstance(owner, ast.Call) and isinstance(owner.func, ast.Name) and owner.func.id == "globals" and not owner.args

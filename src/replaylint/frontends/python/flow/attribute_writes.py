"""The attributes written on an object after its construction (`sp.top_k = 0`,
`setattr(sp, "n", 8)`), each under its branches."""

from __future__ import annotations

import ast
from dataclasses import replace

from .dicts import entry, named_key, written_each_turn
from .facts import Kwargs
from .frames import Evaluates, Frame, expressions
from .logic import decided
from .module import Placed


def written_after(reader: Evaluates, node: ast.Call, frame: Frame) -> tuple[str | None, Kwargs]:
    """The name a construction is bound to (`engine_args = AsyncEngineArgs(...)`), None when it is
    not bound to a name, and the attributes set on its object later in its scope
    (`engine_args.return_sampling_mask = True`)."""
    statement = frame.at.statement if frame.at is not None else None
    if not (isinstance(statement, ast.Assign) and statement.value is node and len(statement.targets) == 1):
        return None, Kwargs()
    target = statement.targets[0]
    if not isinstance(target, ast.Name) or frame.at is None:
        return None, Kwargs()
    return target.id, attributes_written(reader, target.id, frame, frame.at, None)


def attributes_written(reader: Evaluates, target: str, frame: Frame, after: Placed, until: Placed | None) -> Kwargs:
    """The attributes written on the object `target` names (`sp.top_k = 0`,
    `engine_args.return_sampling_mask = True`, `setattr(sp, "n", 8)`) by the statements of
    `frame`'s scope after `after` (its construction) and before `until`, each under its branches."""
    found = Kwargs()
    handed: ast.Call | None = None  # a call the object went to that may or may not make its engine
    for placed in frame.module.statements(frame.scope):
        if placed.order <= after.order or (until is not None and placed.order >= until.order):
            continue
        write = _attribute_write(placed.statement, target)
        if write is None and _writes_otherwise(placed.statement, target):
            found.reasons.append(f"{frame.module.text(placed.statement)[:40]} (not readable here)")
            continue
        if write is None:
            call = _handed(placed.statement, target) if until is None else None
            if call is not None and _makes_engine(placed.statement):
                break  # `from_engine_args(engine_args)`: what is written later does not reach that engine
            handed = handed or call
            continue
        if handed is not None:  # `configure(engine_args)` may have made the engine before this write
            found.reasons.append(f"{frame.module.text(placed.statement)[:40]} (after {frame.module.text(handed.func)}(...))")
            continue
        guards = decided(reader, placed.guards[len(after.guards) :], frame.reading(placed))
        if guards is None:
            continue
        name, first, value = write
        here = frame.reading(placed)
        if not isinstance(name, str) and written_each_turn(reader, found, ("set", None, first, value), guards, here):
            continue  # `for key, value in generate_kwargs.items(): setattr(sp, key, value)` of a mapping known whole
        key = name if isinstance(name, str) else named_key(reader, name, here) if name is not None else None
        if key is None:
            found.reasons.append(f"{frame.module.text(first)[:40]} (not readable here)")
            continue
        earlier = found.entries.pop(key, None)
        written_entry = entry(reader, here, key, first, value, None)
        found.entries[key] = replace(written_entry, guards=guards, otherwise=earlier if guards else None)
    return found


def _handed(statement: ast.stmt, target: str) -> ast.Call | None:
    return next(
        (
            node
            for node in expressions(statement)
            if isinstance(node, ast.Call) and any(isinstance(a, ast.Name) and a.id == target for a in node.args)
        ),
        None,
    )


_ENGINE_MAKERS = ("from_engine_args", "LLM", "LLMEngine", "AsyncLLMEngine", "AsyncLLM")


def _makes_engine(statement: ast.stmt) -> bool:
    """Whether a statement makes an engine (`from_engine_args(engine_args)`, `LLM(**vars(engine_args))`)."""
    return any(
        isinstance(node, ast.Call)
        and (node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", None)) in _ENGINE_MAKERS
        for node in expressions(statement)
    )


def _writes_otherwise(statement: ast.stmt, target: str) -> bool:
    """Whether a statement `_attribute_write` does not read sets an attribute of `target`
    (`a = target.x = v`, `target.x, target.y = pair`, `target.x += 1`)."""
    if isinstance(statement, ast.Assign):
        written = [node for t in statement.targets for node in ast.walk(t)]
    elif isinstance(statement, ast.AugAssign):
        written = list(ast.walk(statement.target))
    else:
        return False
    return any(isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store) and _holds(node, target) for node in written)


def _holds(node: ast.Attribute, target: str) -> bool:
    held = node.value  # `target` is a name or `self.x`
    return getattr(held, "id", None) == target or (isinstance(held, ast.Attribute) and ast.unparse(held) == target)


def _attribute_write(statement: ast.stmt, target: str) -> tuple | None:
    """(attribute name or the node that names it, first node, value) of `target.x = v`,
    `target.x: T = v` or `setattr(target, "x", v)`."""
    single = statement.targets[0] if isinstance(statement, ast.Assign) and len(statement.targets) == 1 else None
    if isinstance(statement, ast.AnnAssign) and statement.value is not None:
        single = statement.target
    if isinstance(single, ast.Attribute) and _holds(single, target):
        return single.attr, statement, statement.value
    if isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call):
        call = statement.value
        if isinstance(call.func, ast.Name) and call.func.id == "setattr" and len(call.args) == 3:
            owner, name, value = call.args
            if isinstance(owner, ast.Name) and owner.id == target:
                return (name.value if isinstance(name, ast.Constant) else name), statement, value
    return None

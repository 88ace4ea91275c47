"""Keys renamed in place by a loop over a table of names (generative-computing/mellea's
`ModelOption.replace_keys`):

    for old_key, new_key in from_to.items():
        if old_key in options:
            value = options.pop(old_key)
            if new_key not in options:  # (optional) a key already there wins
                options[new_key] = value

Each turn moves the entry of `old_key` to `new_key` (or drops it where `new_key` is already there).
The loop is read this way only when the table is known whole with texts for names and the
mapping's keys are known (none unknown, none on a branch); otherwise its writes are read as before."""

from __future__ import annotations

import ast
from dataclasses import replace

from .facts import Kwargs
from .frames import Evaluates, Frame
from .loops import items_pair, known_whole


def renames_in_place(reader: Evaluates, found: Kwargs, loop: ast.stmt, same, frame: Frame) -> bool:
    """Whether `loop` is such a loop over `found` (`same(node)`: the node names the mapping), its
    renames applied to `found`; False (and `found` unchanged) when it is not, or is not readable."""
    shape = _shape(loop, same)
    if shape is None or not found.whole:
        return False
    table, old, new, keeps_existing = shape
    pairs = known_whole(reader, table, frame)
    if pairs is None or not all(isinstance(entry.setting.value, str) for entry in pairs.entries.values()):
        return False
    for old_name, entry in pairs.entries.items():
        new_name = entry.setting.value
        moved = found.entries.pop(old_name, None)
        if moved is None or (keeps_existing and new_name in found.entries):
            continue
        found.entries.pop(new_name, None)
        found.entries[new_name] = replace(moved, setting=replace(moved.setting, name=new_name))
    return True


def _shape(loop: ast.stmt, same) -> tuple[ast.expr, str, str, bool] | None:
    """(the table, the old and new names, whether a key already there wins) of the loop."""
    if not isinstance(loop, ast.For) or loop.orelse or len(loop.body) != 1:
        return None
    pair = items_pair(loop.target, loop.iter)
    test = loop.body[0]
    if pair is None or not (isinstance(test, ast.If) and not test.orelse and _tests(test.test, pair[1], ast.In, same)):
        return None
    table, old, new = pair
    body = test.body
    if len(body) == 1 and _moves(body[0], new, same, lambda value: _popped(value, old, same)):
        return table, old, new, False  # `options[new_key] = options.pop(old_key)`
    if len(body) != 2 or not (isinstance(body[0], ast.Assign) and len(body[0].targets) == 1 and isinstance(body[0].targets[0], ast.Name)):
        return None
    held = body[0].targets[0].id
    if not _popped(body[0].value, old, same):
        return None
    written = body[1]
    keeps = isinstance(written, ast.If) and not written.orelse and len(written.body) == 1 and _tests(written.test, new, ast.NotIn, same)
    write = written.body[0] if keeps else written  # type: ignore[attr-defined]
    is_held = lambda value: isinstance(value, ast.Name) and value.id == held  # noqa: E731
    return (table, old, new, keeps) if _moves(write, new, same, is_held) else None


def _tests(test: ast.expr, name: str, op: type, same) -> bool:
    """`name in options` (`op`: `ast.In`) or `name not in options`."""
    return (
        isinstance(test, ast.Compare)
        and len(test.ops) == 1
        and isinstance(test.ops[0], op)
        and isinstance(test.left, ast.Name)
        and test.left.id == name
        and same(test.comparators[0])
    )


def _popped(value: ast.expr, old: str, same) -> bool:
    """`options.pop(old_key)`."""
    return (
        isinstance(value, ast.Call)
        and isinstance(value.func, ast.Attribute)
        and value.func.attr == "pop"
        and same(value.func.value)
        and len(value.args) == 1
        and not value.keywords
        and isinstance(value.args[0], ast.Name)
        and value.args[0].id == old
    )


def _moves(write: ast.stmt, new: str, same, is_value) -> bool:
    """`options[new_key] = VALUE`, `is_value(VALUE)`."""
    if not (isinstance(write, ast.Assign) and len(write.targets) == 1 and isinstance(write.targets[0], ast.Subscript)):
        return False
    slot = write.targets[0]
    return same(slot.value) and isinstance(slot.slice, ast.Name) and slot.slice.id == new and is_value(write.value)

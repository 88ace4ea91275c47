"""What a record's post-init hook (`__post_init__`, attrs' `__attrs_post_init__`, pydantic's
`model_post_init`) leaves in a field it sets again: LLaMA-Factory's
`self.vllm_config = ast.literal_eval(self.vllm_config)` under
`if isinstance(self.vllm_config, str) and self.vllm_config.startswith("{"):`. The hook is read
with the fields the constructor gave as `self`'s. A field the hook writes once, by a plain
assignment whose branch the fields decide, is read: the written value when the branch is taken,
the field as given when it is not. Any other write (twice, under an undecided test, in a loop,
`object.__setattr__`) leaves the field unknown."""

from __future__ import annotations

import ast
from dataclasses import replace

from .dicts import decided, entry
from .facts import Entry, Kwargs
from .frames import Evaluates, Frame
from .module import FUNCTIONS, POST_INITS, Module, Placed, set_after_init


def after_init(reader: Evaluates, module: Module, node: ast.ClassDef, fields: Kwargs) -> Kwargs:
    """`fields` as the post-init hook of the class `node` (of `module`) leaves them."""
    hook = next((m for m in node.body if isinstance(m, FUNCTIONS) and m.name in POST_INITS), None)
    given = fields.copy()
    for name in sorted(set_after_init(node)):
        read = _written_once(reader, module, node, hook, name, given) if hook is not None else None
        fields.entries.pop(name, None)
        if read is None:
            fields.reasons.append(f"{name} (set again by the class's post-init)")
        elif read is not _UNTAKEN:
            fields.entries[name] = read
        elif name in given.entries:
            fields.entries[name] = given.entries[name]
    return fields


_UNTAKEN = Entry(None)  # type: ignore[arg-type]


def _written_once(
    reader: Evaluates, module: Module, node: ast.ClassDef, hook: ast.FunctionDef | ast.AsyncFunctionDef, name: str, given: Kwargs
) -> Entry | None:
    target = f"self.{name}"
    stores = [n for n in ast.walk(hook) if isinstance(n, ast.Attribute) and isinstance(n.ctx, ast.Store) and ast.unparse(n) == target]
    writes = [p for p in module.statements(hook) if _assigns(p, target)]
    if len(stores) != 1 or len(writes) != 1 or any(guard.opaque for guard in writes[0].guards):
        return None
    placed = writes[0]
    frame = Frame(module, hook, node, None, placed, instance=given)
    left = decided(reader, placed.guards, frame)
    if left is None:
        return _UNTAKEN
    if left:
        return None
    written = entry(reader, frame, name, placed.statement, placed.statement.value, None)  # type: ignore[attr-defined]
    return replace(written, place=None)


def _assigns(placed: Placed, target: str) -> bool:
    statement = placed.statement
    return isinstance(statement, ast.Assign) and len(statement.targets) == 1 and ast.unparse(statement.targets[0]) == target

"""What a record's post-init hook (`__post_init__`, attrs' `__attrs_post_init__`, pydantic's
`model_post_init`) leaves in a field it sets again: LLaMA-Factory's
`self.vllm_config = ast.literal_eval(self.vllm_config)` under
`if isinstance(self.vllm_config, str) and self.vllm_config.startswith("{"):`. The hook is read
with the fields the constructor gave as `self`'s. A field the hook writes once, by a plain
assignment whose branch the fields decide, is read: the written value when the branch is taken,
the field as given when it is not. Any other write (twice, under an undecided test, in a loop,
`object.__setattr__`) leaves the field unknown. The hook's parameters after `self` are the
dataclass's `InitVar` fields, in order, as the constructor gave them (tunix's `VllmConfig` keeps
`engine_kwargs` as `self._processed_engine_kwargs`); an `InitVar` is no attribute of the object."""

from __future__ import annotations

import ast
from dataclasses import replace

from .dicts import decided, entry, nested
from .facts import NOTHING, Entry, Kwargs, Val, read_from
from .frames import Evaluates, Frame, parameters
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
    for name in init_vars(node):
        fields.entries.pop(name, None)
    return fields


def init_vars(node: ast.ClassDef) -> list[str]:
    """The dataclass's `InitVar` fields, in order: what its `__post_init__` is given after `self`."""
    return [
        s.target.id
        for s in node.body
        if isinstance(s, ast.AnnAssign)
        and isinstance(s.target, ast.Name)
        and isinstance(s.annotation, ast.Subscript)
        and ast.unparse(s.annotation.value).rpartition(".")[2] == "InitVar"
    ]


def _hook_args(hook: ast.FunctionDef | ast.AsyncFunctionDef, node: ast.ClassDef, given: Kwargs) -> dict[str, Val] | None:
    """The hook's parameters bound to the `InitVar` fields the constructor gave (None: it takes none)."""
    names = init_vars(node)
    taken = [arg.arg for arg in parameters(hook)[1:]]
    if not names or len(taken) != len(names) or hook.args.vararg is not None:
        return None
    return {parameter: _given(given, name) for parameter, name in zip(taken, names)}


def _given(given: Kwargs, name: str) -> Val:
    item = given.entries.get(name)
    if item is None or item.guards or given.reasons:
        return NOTHING
    mapping = nested(item)
    return mapping if mapping is not None else read_from(item.setting, item.assumptions, item.ref)


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
    frame = Frame(module, hook, node, _hook_args(hook, node, given), placed, instance=given)
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

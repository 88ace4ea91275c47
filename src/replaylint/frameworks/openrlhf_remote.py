"""The keywords an OpenRLHF fork hands its Ray actor beside the engine dict (`frameworks/openrlhf_fork.py`).

`create_vllm_engines` starts each actor with `RolloutRayActor.options(...).remote(**actor_kwargs)`; the actor
passes its `**kwargs` on to `vllm.AsyncEngineArgs`. A keyword written beside the dict reaches the engine the
same way: `.remote(**actor_kwargs, return_sampling_mask=True)`, or bound first with `functools.partial`
(`spawn = functools.partial(RolloutRayActor.options(...).remote, return_sampling_mask=True)`, then
`spawn(**actor_kwargs)`). Each keyword is read like a key of the dict written after it, at its value's line,
under the `if` tests the call sits under (the loop that starts an actor per engine left out: the dict is built
anew in its body). CPython's parser only; nothing of the tree runs.
"""

from __future__ import annotations

import ast
from dataclasses import replace

from .built_dicts import BuiltDict, Written, written
from .fork_conditions import guarded, if_tests
from .fork_source import callee_name, parse


def with_remote_keywords(built: BuiltDict, function: str, name: str) -> BuiltDict:
    """The dict with the keywords each call of `function` that starts the actor with `**name` adds
    (the dict as it was: no such call)."""
    module = parse(built.text)
    functions = [node for node in ast.walk(module) if isinstance(node, ast.FunctionDef) and node.name == function] if module else []
    if len(functions) != 1:
        return built
    partials: dict[str, list[ast.keyword]] = {}
    added: dict[str, Written] = {}
    for statement, condition in guarded(functions[0].body):
        bound = _partial_of_remote(statement)
        if bound is not None:
            partials[bound[0]] = bound[1]
        for call in _shallow_calls(statement):
            if not any(keyword.arg is None and ast.unparse(keyword.value) == name for keyword in call.keywords):
                continue
            keywords = _remote_keywords(call, partials)
            for keyword in keywords or ():
                added[keyword.arg] = written(keyword.arg, keyword.value, True, if_tests(condition))  # type: ignore[arg-type]
    return replace(built, entries={**built.entries, **added}) if added else built


def _shallow_calls(statement: ast.stmt) -> list[ast.Call]:
    """The calls of one simple statement (a compound one's own body is walked statement by statement)."""
    if isinstance(statement, (ast.Expr, ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Return)) and statement.value is not None:
        return [node for node in ast.walk(statement.value) if isinstance(node, ast.Call)]
    return []


def _remote_keywords(call: ast.Call, partials: dict[str, list[ast.keyword]]) -> list[ast.keyword] | None:
    """The named keywords that reach the actor: beside the spread in `.remote(...)`, or those of the
    `functools.partial` the call's name holds, then the call's own (None: not a call that starts the actor)."""
    own = [keyword for keyword in call.keywords if keyword.arg is not None]
    if callee_name(call) == "remote" and isinstance(call.func, ast.Attribute):
        return own
    if isinstance(call.func, ast.Name) and call.func.id in partials:
        return [*partials[call.func.id], *own]
    return None


def _partial_of_remote(statement: ast.stmt) -> tuple[str, list[ast.keyword]] | None:
    """`name = functools.partial(X.remote, k=v, ...)` (or `partial(...)`): the name and its keywords."""
    if not (isinstance(statement, ast.Assign) and len(statement.targets) == 1 and isinstance(statement.targets[0], ast.Name)):
        return None
    value = statement.value
    if not (isinstance(value, ast.Call) and callee_name(value) == "partial" and len(value.args) == 1):
        return None
    target = value.args[0]
    if not (isinstance(target, ast.Attribute) and target.attr == "remote"):
        return None
    if any(keyword.arg is None for keyword in value.keywords):
        return None
    return statement.targets[0].id, list(value.keywords)

"""An engine's request method handed to something that calls it later, with the arguments it is called with: `partial(
llm.generate, prompts, sampling_params=params)` (delphi's `Offline.process_func`, run by `loop.run_in_executor(None,
partial(...))`), `loop.run_in_executor(None, llm.generate, prompts, params)`, `asyncio.to_thread(llm.generate, prompts,
params)` and `executor.submit(llm.generate, prompts, params)`. Each is read as the call it makes (`llm.generate(prompts,
sampling_params=params)`) at the place it is written. Only a hand-off that gives the params itself is kept: a partial called
later with more arguments may add them there, and a starred argument may hold them."""

from __future__ import annotations

import ast

from .callsites import Call, argument_at, calls
from .module import Module

# the callee's last name, and the index of the method among its positional arguments
_RUNNERS = {"partial": 0, "run_in_executor": 1, "to_thread": 0, "submit": 0}


def deferred_calls(module: Module, methods: dict[str, tuple[str, int]]) -> list[Call]:
    """The calls the hand-offs of `methods` (name: the params' keyword and position) make in the module, each placed
    where its hand-off is written; the lines are found by the method named and then a comma (`llm.generate,`)."""
    found = []
    for site in calls(module, tuple(f".{method}," for method in methods)):
        made = _made_call(site.node, methods)
        if made is not None:
            found.append(Call(made, site.placed, site.scope, site.cls))
    return found


def _made_call(node: ast.Call, methods: dict[str, tuple[str, int]]) -> ast.Call | None:
    func = node.func
    name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
    at = _RUNNERS.get(name or "")
    if at is None or len(node.args) <= at or any(isinstance(a, ast.Starred) for a in node.args):
        return None
    method = node.args[at]
    if not isinstance(method, ast.Attribute) or method.attr not in methods or any(k.arg is None for k in node.keywords):
        return None
    keywords = node.keywords if name != "run_in_executor" else []  # the loop's own call takes none
    made = ast.Call(func=method, args=list(node.args[at + 1 :]), keywords=list(keywords))
    if argument_at(made, *methods[method.attr]) is None:  # the params are given where it is called, not known here
        return None
    return ast.copy_location(made, node)  # its span too: the hand-off's

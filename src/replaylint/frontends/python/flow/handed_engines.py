"""An engine handed to a function that sends requests on it, from a `self` attribute that holds
None on another branch: WildGuard's `inference_with_vllm(prompts, model=self.model, ...)`, whose
`__init__` sets `self.model = None` for an ephemeral model and `LLM(...)` otherwise. The
function calls `model.generate(...)`, and None has no `generate`: a request it sends reaches the
engine the attribute holds."""

from __future__ import annotations

import ast

from .facts import Val
from .frames import Frame, parameters
from .members import self_attribute
from .module import FUNCTIONS
from .reader import Engine, Function, Partial, Reader, bind

_METHODS = ("generate", "chat", "beam_search")


def engines_handed(reader: Reader, function: Function, node: ast.Call, caller: Frame, partial: Partial | None) -> dict[str, Val]:
    """The call's arguments as the function's parameters see them (`bind`), with the engine a
    `self` attribute holds for each parameter the function sends requests on that the reader
    did not read as an engine (the attribute is also set to None)."""
    bound = bind(reader, function, node, caller, partial=partial)
    if caller.cls is None or not isinstance(caller.scope, FUNCTIONS):
        return bound
    for position, name in _receivers(function.node):
        if isinstance(bound.get(name, Val()).ref, Engine):
            continue
        given = _argument(node, name, position)
        if isinstance(given, ast.Attribute) and isinstance(given.value, ast.Name) and given.value.id == "self":
            held = self_attribute(reader, given.attr, caller, set_later=True)
            if isinstance(held.ref, Engine):
                bound[name] = held
    return bound


def _receivers(function: ast.FunctionDef | ast.AsyncFunctionDef) -> list[tuple[int, str]]:
    """The parameters (with their position) the function calls a request method on (`model.generate(...)`)."""
    called = {
        node.func.value.id
        for node in ast.walk(function)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in _METHODS
        and isinstance(node.func.value, ast.Name)
    }
    return [(position, arg.arg) for position, arg in enumerate(parameters(function)) if arg.arg in called]


def _argument(node: ast.Call, name: str, position: int) -> ast.expr | None:
    for keyword in node.keywords:
        if keyword.arg == name:
            return keyword.value
    if any(isinstance(argument, ast.Starred) for argument in node.args[: position + 1]):
        return None
    return node.args[position] if position < len(node.args) else None

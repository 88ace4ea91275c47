"""Calls of a module-level function through a `functools.partial` of it bound to a name
(`short = partial(generate, max_tokens=4096, thinking_token_budget=1024)`, then `short(client, ids)`),
in the function's module or in a module near it that imports it: each call passes the partial's
arguments before its own, as `partial` does (`binding.bind`)."""

from __future__ import annotations

import ast
from typing import Iterator

from .callsites import Call, calls
from .engines import elsewhere
from .frames import Frame
from .module import Module
from .reader import Reader
from .refs import Function, Partial

_MAX_NAMES = 4  # partials of one function followed per module


def partial_sites(
    reader: Reader, module: Module, function: ast.FunctionDef | ast.AsyncFunctionDef
) -> Iterator[tuple[Module, Call, Partial]]:
    """(the module, the call of a partial's name, the partial) for each such call."""
    made = [(module, site) for site in calls(module, ("partial(",))]
    made += [(home, site) for home, site in elsewhere(reader, module, function, ("partial(",))]
    named = [(home, site) for home, site in made if site.node.args and _names(site.node.args[0], function.name)]
    for home, site in named[:_MAX_NAMES]:
        statement = site.placed.statement
        if not isinstance(statement, ast.Assign) or statement.value is not site.node:
            continue
        for name in [target.id for target in statement.targets if isinstance(target, ast.Name)][:1]:
            for call in calls(home, (f"{name}(",)):
                if not (isinstance(call.node.func, ast.Name) and call.node.func.id == name):
                    continue
                held = reader.evaluate(call.node.func, Frame(home, call.scope, call.cls, None, call.placed)).ref
                if isinstance(held, Partial) and isinstance(held.func.ref, Function) and held.func.ref.node is function:
                    yield home, call, held


def _names(node: ast.expr, name: str) -> bool:
    return (isinstance(node, ast.Name) and node.id == name) or (isinstance(node, ast.Attribute) and node.attr == name)

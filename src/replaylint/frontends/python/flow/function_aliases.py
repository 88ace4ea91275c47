"""The calls of a module-level function in its own module: by its name, and by a name an assignment
binds to it (minictx-eval's `evaluation = best_first_search` in `__main__`, then `evaluation(...)`),
kept only where the reader finds that name holds the function when the call runs."""

from __future__ import annotations

import ast

from ....regexes import on_use
from ..names import occurrences
from .callsites import Call, calls
from .frames import Frame
from .module import Module
from .reader import Reader
from .refs import Function


def named_sites(reader: Reader, module: Module, function: ast.FunctionDef | ast.AsyncFunctionDef) -> list[Call]:
    """The calls of `function` by its own name, then those by a name bound to it."""
    found = [site for site in calls(module, (function.name + "(",)) if _named(site, {function.name})]
    return found + _alias_sites(reader, module, function)


def _alias_sites(reader: Reader, module: Module, function: ast.FunctionDef | ast.AsyncFunctionDef) -> list[Call]:
    """The calls of the names bound to a module-level function (`run = main`, then `run(args)`)."""
    if function not in module.tree.body or not _read_as_value(module.source.text, function.name) or not module.referenced(function.name):
        return []  # (its name read other than called: else no assignment can bind it)
    aliases = module.names_bound_to(function.name) - {function.name}
    if not aliases:
        return []
    sites = [site for site in calls(module, tuple(sorted(alias + "(" for alias in aliases))) if _named(site, aliases)]
    return [site for site in sites if _holds(reader, module, site, function)]


_CALLED = on_use(r"[ \t]*\(")


def _read_as_value(text: str, name: str) -> bool:
    """Whether the text may name `name` other than calling or defining it, told before the module's
    walk of its names (`Module.referenced`), which a large test module pays for every engine function."""
    for start in occurrences(text, (name,)):
        end = start + len(name)
        if (start and (text[start - 1].isalnum() or text[start - 1] in "_.")) or (
            end < len(text) and (text[end].isalnum() or text[end] == "_")
        ):
            continue
        if not _CALLED.match(text, end) and text[max(0, start - 4) : start] != "def ":
            return True
    return False


def _named(site: Call, names: set[str]) -> bool:
    return isinstance(site.node.func, ast.Name) and site.node.func.id in names


def _holds(reader: Reader, module: Module, site: Call, function: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """Whether the name the site calls holds `function` where the call is (not another function an
    `if` binds it to: minictx-eval's `evaluation = evaluation_API` when the model is an API's)."""
    frame = Frame(module, site.scope, site.cls, None, site.placed)
    held = reader.evaluate(site.node.func, frame).ref
    return isinstance(held, Function) and held.node is function and _fits(site.node, function)


def _fits(call: ast.Call, function: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """Whether the call's arguments bind to the function's parameters, as Python binds them (a call
    that would raise `TypeError` calls another function the name holds on another branch, minictx-eval's
    `evaluation(example, thread_id, ...)` of `evaluation_API`); a spread (`*args`, `**kw`) may fit."""
    if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
        return True
    signature = function.args
    positional = [*signature.posonlyargs, *signature.args]
    if len(call.args) > len(positional) and signature.vararg is None:
        return False
    by_position = {param.arg for param in positional[: len(call.args)]}
    named = {param.arg for param in positional[len(call.args) :] if param not in signature.posonlyargs}
    named |= {param.arg for param in signature.kwonlyargs}
    given = {k.arg for k in call.keywords}
    if signature.kwarg is None and not given <= named or given & by_position:
        return False
    needed = {param.arg for param in positional[: len(positional) - len(signature.defaults)]}
    needed |= {param.arg for param, default in zip(signature.kwonlyargs, signature.kw_defaults) if default is None}
    return needed <= by_position | given

"""Calls of a module-level function through a function of another module that hands it back by
name: alpaca_eval's `decoders.get_fn_completions(name)` imports `vllm_local_completions` in its
`elif name == "vllm_local_completions":` branch and returns it, and `evaluate_from_model` calls
what it got (`fn_completions = decoders.get_fn_completions(configs["fn_completions"])`, then
`fn_completions(prompts=prompts, **configs["completions_kwargs"])`). Those calls are found here by
their shape; whether one calls the function (the name picking its branch) is the reader's to say
(`calls_function`), as for any other call site near it.

Read: the modules near the function's that import it and return it (their text holds `return
name`), and the modules near each of those that name the dispatching function; nothing is parsed
for a module that does neither."""

from __future__ import annotations

import ast
import re
from typing import Iterator

from ..asts import walk
from .callsites import Call, calls
from .module import FUNCTIONS, Module, local_import

MAX_DISPATCHERS = 4  # functions handing one function back, followed


def dispatched_calls(tree, module: Module, function: ast.FunctionDef | ast.AsyncFunctionDef) -> Iterator[tuple[Module, Call]]:
    """The calls of the results of the functions near `module` that return `function` (`tree`: the reader's)."""
    returned = re.compile(rf"\breturn\s+{re.escape(function.name)}\b")
    found = 0
    for path, text in tree.importers_naming(module.path, (function.name,)):
        if not returned.search(text):
            continue
        home = tree.open_file(path, text)
        for dispatcher in _dispatchers(home, function.name) if home is not None else ():
            found += 1
            if found > MAX_DISPATCHERS:
                return
            yield from _result_calls(tree, home, dispatcher)


_LOCAL_IMPORT = re.compile(r"(?m)^[ \t]+(?:from|import)\s")


def handed_back(tree, module: Module) -> dict[str, Module]:
    """The tree's modules whose function a function of `module` imports where it runs and returns
    (`from .vllm_local import vllm_local_completions`, then `return vllm_local_completions`), by path."""
    if "return " not in module.source.text or not _LOCAL_IMPORT.search(module.source.text):
        return {}
    found = {}
    for function in (f for f in module.tree.body if isinstance(f, FUNCTIONS)):
        returned = {n.value.id for n in walk(function) if isinstance(n, ast.Return) and isinstance(n.value, ast.Name)}
        imports = [node for node in walk(function) if isinstance(node, ast.ImportFrom)]
        for node, name in ((node, a.asname or a.name) for node in imports for a in node.names if (a.asname or a.name) in returned):
            qualified = local_import(node, name)
            resolved = tree.resolve(qualified, module) if qualified else None
            if resolved is not None:
                found[resolved[0].path] = resolved[0]
    return found


def _dispatchers(module: Module, name: str) -> list[ast.FunctionDef | ast.AsyncFunctionDef]:
    """The module-level functions of `module` that return `name` where they import it."""
    found = []
    for function in module.tree.body:
        if not isinstance(function, FUNCTIONS):
            continue
        nodes = list(walk(function))
        imported = any(isinstance(n, (ast.Import, ast.ImportFrom)) and _binds(n, name) for n in nodes) or name in module.imports
        if imported and any(isinstance(n, ast.Return) and isinstance(n.value, ast.Name) and n.value.id == name for n in nodes):
            found.append(function)
    return found


def _binds(statement: ast.Import | ast.ImportFrom, name: str) -> bool:
    return any((alias.asname or alias.name.split(".")[0]) == name for alias in statement.names)


def _result_calls(tree, home: Module, dispatcher: ast.FunctionDef | ast.AsyncFunctionDef) -> Iterator[tuple[Module, Call]]:
    """The calls of the names the dispatcher's results are bound to, in its module and in those near
    it that name it (`fn = decoders.get_fn_completions(name)`, then `fn(...)`), and `get(name)(...)`."""
    word = dispatcher.name + "("
    callers = [(home.path, home.source.text), *tree.importers_naming(home.path, (dispatcher.name,))]
    for path, text in callers:
        if word not in text:
            continue
        caller = home if path == home.path else tree.open_file(path, text)
        if caller is None:
            continue
        made = [site for site in calls(caller, (word,)) if _named(site.node.func, dispatcher.name)]
        names = {statement.targets[0].id for site in made if (statement := _bound(site)) is not None}
        words = tuple(sorted(f"{name}(" for name in names)) + (word,)
        for site in calls(caller, words):
            func = site.node.func
            if (isinstance(func, ast.Name) and func.id in names) or (isinstance(func, ast.Call) and _named(func.func, dispatcher.name)):
                yield caller, site


def _named(func: ast.expr, name: str) -> bool:
    """`name` or `module.name`."""
    return (isinstance(func, ast.Name) and func.id == name) or (isinstance(func, ast.Attribute) and func.attr == name)


def _bound(site: Call) -> ast.Assign | None:
    statement = site.placed.statement
    one_name = isinstance(statement, ast.Assign) and len(statement.targets) == 1 and isinstance(statement.targets[0], ast.Name)
    return statement if one_name and statement.value is site.node else None  # type: ignore[return-value]

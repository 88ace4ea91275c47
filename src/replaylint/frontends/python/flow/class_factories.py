"""Constructions of a class of the tree that do not name it where they call it: a framework's
classmethod that makes the class with its own arguments (RLinf's `VLLMWorker.create_group(cfg,
placement)`, `framework_registry.GROUP_MAKERS`), and a module-level function that returns the
class itself, whose result is then made (RLinf's `get_rollout_backend_worker(cfg, placement)`,
rlinf/workers/rollout/utils.py: `from rlinf.workers.rollout.vllm.vllm_worker import VLLMWorker`
and `return VLLMWorker` on the branch `cfg.rollout.get("rollout_backend") == "vllm"` takes, bound
in examples/reasoning/main_grpo.py as `rollout_worker_cls = get_rollout_backend_worker(cfg,
placement)` and made by `rollout_worker_cls.create_group(cfg, placement)`).

The function is looked for, by the text `return Cls`, in the modules near the class's that import
it; its calls in the modules near that module that import the function. The name its call is bound
to must hold the class where the name is made (the function's branches decided by the call's
arguments): where that is not known, the site is not counted and the class's arguments stay open."""

from __future__ import annotations

import ast

from ....framework_registry import GROUP_MAKERS
from .callsites import Call, calls
from .frames import Evaluates, Frame
from .module import FUNCTIONS, Module

_GROUP_METHODS = frozenset(maker.method for maker in GROUP_MAKERS)
MADE_BY = ("(", ".remote(", ".options(", ".bind(", *(f".{method}(" for method in sorted(_GROUP_METHODS)))  # how a construction is spelt
_MAX_MODULES = 8  # modules near the class's (and near the function's) looked into


def constructor(func: ast.expr) -> ast.expr:
    """What a construction calls: `X` of `X(...)`, `X.remote(...)`, `X.options(...).remote(...)`,
    `X.bind(...)`, a framework's `X.create_group(...)` (`made_with_arguments` says whether it makes `X`)."""
    if isinstance(func, ast.Attribute) and func.attr in ("remote", "bind", *_GROUP_METHODS):
        func = func.value
        if isinstance(func, ast.Call) and isinstance(func.func, ast.Attribute) and func.func.attr == "options":
            func = func.func.value
    return func


def made_with_arguments(func: ast.expr, made: object) -> bool:
    """Whether a construction that calls `func` on the class `made` (a `flow.objects.Class`) makes it
    with the call's arguments: a framework's group maker only for a subclass of its base that does not
    define the method itself."""
    if not (isinstance(func, ast.Attribute) and func.attr in _GROUP_METHODS):
        return True
    module, node = getattr(made, "module", None), getattr(made, "node", None)
    if not isinstance(module, Module) or not isinstance(node, ast.ClassDef):
        return False
    if any(isinstance(item, FUNCTIONS) and item.name == func.attr for item in node.body):
        return False
    packages = tuple(maker.package for maker in GROUP_MAKERS if maker.method == func.attr)
    bases = [module.imports.get(base.id, "") for base in node.bases if isinstance(base, ast.Name)]
    return any(base == package or base.startswith(f"{package}.") for base in bases for package in packages)


def factory_sites(reader: Evaluates, module: Module, cls: ast.ClassDef) -> list[tuple[Module, Call]]:
    """The constructions of `cls` through a module-level function of the tree that returns it."""
    tree = reader.tree  # type: ignore[attr-defined]
    found: list[tuple[Module, Call]] = []
    for path, text in tree.importers_naming(module.path, (cls.name,))[:_MAX_MODULES]:
        if f"return {cls.name}" not in text:
            continue
        home = tree.open_file(path, text)
        for function in home.tree.body if home is not None else ():
            if isinstance(function, FUNCTIONS) and _returns(function, cls.name):
                found += _made_from_calls(reader, home, function, cls)
    return found


def _returns(function: ast.FunctionDef | ast.AsyncFunctionDef, name: str) -> bool:
    return any(isinstance(node, ast.Return) and isinstance(node.value, ast.Name) and node.value.id == name for node in ast.walk(function))


def _made_from_calls(
    reader: Evaluates, home: Module, function: ast.FunctionDef | ast.AsyncFunctionDef, cls: ast.ClassDef
) -> list[tuple[Module, Call]]:
    """`worker_cls = make_cls(...)`, then `worker_cls(...)` (`.remote(...)`, a group maker) in the same scope."""
    tree = reader.tree  # type: ignore[attr-defined]
    found: list[tuple[Module, Call]] = []
    for path, text in tree.importers_naming(home.path, (function.name,))[:_MAX_MODULES]:
        other = tree.open_file(path, text)
        for call in calls(other, (f"{function.name}(",)) if other is not None else ():
            statement = call.placed.statement
            if not (isinstance(statement, ast.Assign) and statement.value is call.node and len(statement.targets) == 1):
                continue
            target = statement.targets[0]
            if isinstance(target, ast.Name):
                found += [(other, site) for site in _made_on(reader, other, call, target.id, cls)]
    return found


def _made_on(reader: Evaluates, module: Module, bound: Call, name: str, cls: ast.ClassDef) -> list[Call]:
    sites = []
    for site in calls(module, tuple(f"{name}{tail}" for tail in MADE_BY)):
        func = constructor(site.node.func)
        if site.scope is not bound.scope or not (isinstance(func, ast.Name) and func.id == name):
            continue
        made = reader.evaluate(func, Frame(module, site.scope, site.cls, None, site.placed)).ref
        if getattr(made, "node", None) is cls and made_with_arguments(site.node.func, made):
            sites.append(site)
    return sites

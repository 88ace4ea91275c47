"""Calls of a method's name, in the modules near its class's, on an object the reader cannot tell
apart: prometheus-eval's `batch_completions_with_retries(model, inputs, mode, params)` calls
`model.completions(inputs, use_tqdm=True, **params)` with `model` a parameter. Such a call may be
the method's, and what it passes may reach the method's `**kwargs`, which are then not judged as
written (`Reader._as_written`). A `__call__` is called as the object itself, in a module that names
its class: Archon's `self.generator(..., top_k=self.top_k)`, `self.generator` a `vllmWrapper` on one
branch of three."""

from __future__ import annotations

import ast
import os
from typing import Callable

from .callsites import calls
from .frames import Evaluates, Frame, reaching
from .module import Module
from .objects import Class
from .refs import Bound, Engine, Function, Partial, Qualified

_KNOWN_CALLEES = (Class, Function, Bound, Partial, Qualified, Engine)
Opens = Callable[[str, str], "Module | None"]


def called_on_unknown(
    reader: Evaluates,
    module: Module,
    method: ast.FunctionDef | ast.AsyncFunctionDef,
    texts: list[tuple[str, str]],
    open_file: Opens,
    key: str | None = None,
) -> bool:
    """Whether a module near `module` (or `module` itself) calls `.method(...)` with keywords the
    method's `**kwargs` would take (`**params`, a name it has no parameter for; with `key`, only
    `**params` or `key=`) on a receiver that is neither `self` nor an object the reader knows the
    class of."""
    known: dict = reader.__dict__.setdefault("_called_on_unknown", {})
    if (id(method), key) not in known:
        known[id(method), key] = _called_on_unknown(reader, module, method, texts, open_file, key)
    return known[id(method), key]


def _called_on_unknown(
    reader: Evaluates,
    module: Module,
    method: ast.FunctionDef | ast.AsyncFunctionDef,
    texts: list[tuple[str, str]],
    open_file: Opens,
    key: str | None,
) -> bool:
    word = f".{method.name}("
    called = method.name == "__call__"
    if called:
        owner = _owner(module, method)
        if owner is None:
            return False
        word = owner.name
    named = {argument.arg for argument in (*method.args.posonlyargs, *method.args.args, *method.args.kwonlyargs)}
    here = os.path.normpath(module.path)
    for path, text in [(module.path, ""), *texts]:
        if path != module.path and (word not in text or os.path.normpath(path) == here):
            continue
        other = module if path == module.path else open_file(path, text)
        if other is None:
            continue
        for site in calls(other, ("(",) if called else (word,)):
            receiver = _receiver(site.node.func, method.name)
            if receiver is None:
                continue
            if any(_may_reach(keyword, named, key) for keyword in site.node.keywords):
                frame = Frame(other, site.scope, site.cls, None, site.placed)
                if not (_object_called_apart if called else _told_apart)(reader, frame, receiver):
                    return True
    return False


def _may_reach(keyword: ast.keyword, named: set[str], key: str | None) -> bool:
    """Whether a call's keyword may land in the method's `**kwargs` (as `key`, when asked)."""
    if keyword.arg is None:
        return True
    return keyword.arg not in named and key in (None, keyword.arg)


def _owner(module: Module, method: ast.FunctionDef | ast.AsyncFunctionDef) -> ast.ClassDef | None:
    return next((node for node in ast.walk(module.tree) if isinstance(node, ast.ClassDef) and method in node.body), None)


def _receiver(func: ast.expr, name: str) -> ast.expr | None:
    """What the call is made on: `model` of `model.completions(...)`; for `__call__`, the object
    called (`self.generator`, a name)."""
    if name == "__call__":
        return func if isinstance(func, (ast.Attribute, ast.Name)) else None
    return func.value if isinstance(func, ast.Attribute) and func.attr == name else None


def _object_called_apart(reader: Evaluates, frame: Frame, called: ast.expr) -> bool:
    """Whether what is called is told apart from an object: a function, a class, a library's
    callable, or a name bound by a `def` or an import (a builtin too)."""
    if isinstance(called, ast.Name):
        binding = reaching(frame, called.id)
        if binding is None or binding.kind in ("definition", "import"):
            return True
    return isinstance(reader.evaluate(called, frame).ref, _KNOWN_CALLEES)


def _told_apart(reader: Evaluates, frame: Frame, receiver: ast.expr) -> bool:
    """Whether the receiver is `self` (its class's own calls are read with it) or made by a class
    the reader knows (`Client(url)`, or a name bound to that): a call the tree's readers place."""
    if isinstance(receiver, ast.Name) and receiver.id == "self":
        return True
    binding = reaching(frame, receiver.id) if isinstance(receiver, ast.Name) else None
    made = receiver if isinstance(receiver, ast.Call) else binding.value if binding is not None and binding.kind == "value" else None
    if not isinstance(made, ast.Call) or (binding is not None and binding.element is not None):
        return False
    return isinstance(reader.evaluate(made.func, frame).ref, Class)

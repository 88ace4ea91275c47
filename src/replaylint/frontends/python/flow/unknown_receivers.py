"""Calls of a method's name, in the modules near its class's, on an object the reader cannot tell
apart: prometheus-eval's `batch_completions_with_retries(model, inputs, mode, params)` calls
`model.completions(inputs, use_tqdm=True, **params)` with `model` a parameter. Such a call may be
the method's, and what it passes may reach the method's `**kwargs`, which are then not judged as
written (`Reader._as_written`)."""

from __future__ import annotations

import ast
import os
from typing import Callable

from .callsites import calls
from .frames import Evaluates, Frame, reaching
from .module import Module
from .objects import Class

Opens = Callable[[str, str], "Module | None"]


def called_on_unknown(
    reader: Evaluates, module: Module, method: ast.FunctionDef | ast.AsyncFunctionDef, texts: list[tuple[str, str]], open_file: Opens
) -> bool:
    """Whether a module near `module` (or `module` itself) calls `.method(...)` with keywords the
    method's `**kwargs` would take (`**params`, a name it has no parameter for) on a receiver that
    is neither `self` nor an object the reader knows the class of."""
    known: dict = reader.__dict__.setdefault("_called_on_unknown", {})
    if id(method) not in known:
        known[id(method)] = _called_on_unknown(reader, module, method, texts, open_file)
    return known[id(method)]


def _called_on_unknown(
    reader: Evaluates, module: Module, method: ast.FunctionDef | ast.AsyncFunctionDef, texts: list[tuple[str, str]], open_file: Opens
) -> bool:
    word = f".{method.name}("
    named = {argument.arg for argument in (*method.args.posonlyargs, *method.args.args, *method.args.kwonlyargs)}
    here = os.path.normpath(module.path)
    for path, text in [(module.path, ""), *texts]:
        if path != module.path and (word not in text or os.path.normpath(path) == here):
            continue
        other = module if path == module.path else open_file(path, text)
        if other is None:
            continue
        for site in calls(other, (word,)):
            func = site.node.func
            if not isinstance(func, ast.Attribute) or func.attr != method.name:
                continue
            if any(keyword.arg is None or keyword.arg not in named for keyword in site.node.keywords):
                if not _told_apart(reader, Frame(other, site.scope, site.cls, None, site.placed), func.value):
                    return True
    return False


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

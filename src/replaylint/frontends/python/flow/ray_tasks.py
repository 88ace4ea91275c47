"""Calls of a Ray task: a function made remote (`@ray.remote`, `@ray.remote(num_gpus=1)`,
`task = ray.remote(fn)`) is called as `fn.remote(...)` or `fn.options(...).remote(...)`, and Ray
runs it with those arguments: each such call is read as the call `fn(...)`, so what the caller
passes (`run_inference_one_model.remote(self.model_args, params, batch)`) reaches the engine
the function builds (`LLM(**model_args)`)."""

from __future__ import annotations

import ast

from .callsites import Call, calls
from .frames import Evaluates, Frame
from .module import Module
from .receivers import names_definition
from .refs import Function

WORDS = (".remote(",)


def task_sites(reader: Evaluates, module: Module, function: ast.FunctionDef | ast.AsyncFunctionDef) -> list[Call]:
    """The module's `.remote(...)` calls of `function`, each as the plain call Ray makes."""
    if ".remote(" not in module.source.text:
        return []
    return [made for site in calls(module, WORDS) if (made := as_task_call(reader, module, site, function)) is not None]


def as_task_call(reader: Evaluates, home: Module, site: Call, function: ast.AST) -> Call | None:
    """`site` as a call of `function` when it runs it as a Ray task, else None."""
    task = _task(site.node.func)
    if task is None:
        return None
    held = reader.evaluate(task, Frame(home, site.scope, site.cls, None, site.placed)).ref
    if not (isinstance(held, Function) and held.node is function):
        return None  # `.remote` is only an attribute of what `ray.remote` made: the name holds the function itself
    node = site.node
    made = ast.copy_location(ast.Call(task, node.args, node.keywords), node)
    made.end_lineno, made.end_col_offset = node.end_lineno, node.end_col_offset
    return Call(made, site.placed, site.scope, site.cls)


def calls_function(reader: Evaluates, home: Module, site: Call, function: ast.AST) -> bool:
    """Whether `site` calls `function`, itself or as a Ray task."""
    frame = Frame(home, site.scope, site.cls, None, site.placed)
    callee = reader.evaluate(site.node.func, frame).ref
    if isinstance(site.node.func, ast.Subscript) and not isinstance(callee, Function):  # `TABLE[key](...)` of a key not known here
        return names_definition(reader, frame, site.node.func, function)
    return (isinstance(callee, Function) and callee.node is function) or as_task_call(reader, home, site, function) is not None


def _task(func: ast.expr) -> ast.expr | None:
    """`fn` of `fn.remote` and of `fn.options(...).remote`."""
    if not (isinstance(func, ast.Attribute) and func.attr == "remote"):
        return None
    task = func.value
    if isinstance(task, ast.Call) and isinstance(task.func, ast.Attribute) and task.func.attr == "options":
        task = task.func.value
    return task if isinstance(task, (ast.Name, ast.Attribute)) else None

"""A dict handed to a function of the tree that only takes keys out of it (AutoRAG's
`make_vllm_instance(llm, input_kwargs)`, which pops the engine's keys from the request's dict
with `input_args.pop(key)`): after the call, every key it held may be gone, and no key was put in,
so a key it did not hold is still absent; one that only reads it leaves it as it was
(`llm = load_vllm(cfg)`). Any other use of the parameter (a write, `update`, the
dict handed on or bound to another name, returned) may change it in any way."""

from __future__ import annotations

import ast

from .frames import Evaluates, Frame
from .refs import Function

_TAKING = ("pop",)  # methods that take keys out
_READING = ("get", "items", "keys", "values", "copy")
_READ_BY = ("len", "list", "dict", "sorted", "print", "deepcopy", "copy")  # calls that read it (a copy: changes stay there)


READS, REMOVES = "reads", "removes"


def change_by(reader: Evaluates, call: ast.Call, position: int, frame: Frame) -> str | None:
    """What the function `call` calls does to the dict it passes at `position`: only reads it
    (`READS`), reads it and takes keys out (`REMOVES`), or None (it may change it otherwise)."""
    callee = reader.evaluate(call.func, frame).ref
    if not isinstance(callee, Function) or callee.cls is not None or callee.node.decorator_list:
        return None
    function = callee.node
    params = [*function.args.posonlyargs, *function.args.args]
    if position >= len(params) or any(isinstance(argument, ast.Starred) for argument in call.args[: position + 1]):
        return None
    name = params[position].arg
    parents = {child: node for node in ast.walk(function) for child in ast.iter_child_nodes(node)}
    uses = [_use(node, parents) for node in ast.walk(function) if isinstance(node, ast.Name) and node.id == name]
    return None if None in uses else REMOVES if REMOVES in uses else READS


def _use(node: ast.Name, parents: dict) -> str | None:
    """How this use of the parameter uses the dict: `READS`, `REMOVES`, or None (it may change it)."""
    parent = parents.get(node)
    if not isinstance(node.ctx, ast.Load):
        return None
    if isinstance(parent, ast.Attribute) and parent.attr in (*_TAKING, *_READING):
        called = parents.get(parent)
        taken = REMOVES if parent.attr in _TAKING else READS
        return taken if isinstance(called, ast.Call) and called.func is parent else None
    if isinstance(parent, ast.Subscript) and parent.value is node:
        return {ast.Load: READS, ast.Del: REMOVES}.get(type(parent.ctx))  # `d[key]`, `del d[key]`
    if isinstance(parent, ast.Compare):
        return READS if node in parent.comparators else None  # `key in d`
    if isinstance(parent, ast.keyword):
        return READS if parent.arg is None else None  # `**d`: a copy
    if isinstance(parent, ast.Call) and node in parent.args:
        func = parent.func
        return READS if (func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)) in _READ_BY else None
    return READS if isinstance(parent, ast.comprehension) and parent.iter is node else None  # `for key in d` of a comprehension

"""The Ray actors whose request methods reach a vLLM engine: an actor of the engine's class
(`ray.remote(LLM)`), or of a subclass that keeps the engine's method; and an actor of the tree
whose request method only hands its arguments on to the engine its
`__init__` stores (Open-Reasoner-Zero's `LLMActor`: `self.llm = vllm.LLM(*args, **kwargs)`, then
`def generate(self, *args, **kwargs): return self.llm.generate(*args, **kwargs)`): a call
`actor.generate.remote(prompts, sampling_params=params)` is that engine's request. A method that
does anything else, or an attribute set again elsewhere, is not followed."""

from __future__ import annotations

import ast

from .callsites import self_attribute
from .class_order import init_of
from .engine_names import actor_class
from .frames import Evaluates, Frame
from .module import FUNCTIONS
from .objects import Class
from .refs import Qualified, engine_name


def actor_of_engine(reader: Evaluates, frame: Frame, made: ast.Call, method: str) -> bool:
    """Whether `actor.<method>.remote(...)` on the actor `made` makes is a request of a vLLM engine."""
    named = actor_class(made.func)
    actor = reader.evaluate(named, frame).ref if named is not None else None
    if isinstance(actor, Qualified):
        return engine_name(actor.name)
    if not isinstance(actor, Class):
        return False
    function = next((m for m in actor.node.body if isinstance(m, FUNCTIONS) and m.name == method), None)
    if function is not None:
        return _forwards_to_engine(reader, actor, function, method)
    top = Frame(actor.module, actor.module.tree)
    return any(isinstance(base := reader.evaluate(b, top).ref, Qualified) and engine_name(base.name) for b in actor.node.bases)


def _forwards_to_engine(reader: Evaluates, actor: Class, function: ast.FunctionDef | ast.AsyncFunctionDef, method: str) -> bool:
    """Whether the actor's `method` hands its arguments, all of them, to its engine's `method`."""
    returned = function.body[0].value if len(function.body) == 1 and isinstance(function.body[0], ast.Return) else None
    if not isinstance(returned, ast.Call) or not _hands_all(returned, function):
        return False
    func = returned.func
    attr = self_attribute(func.value) if isinstance(func, ast.Attribute) and func.attr == method else None
    stored = _stored_once(actor, attr) if attr is not None else None
    built = reader.evaluate(stored.func, Frame(actor.module, actor.module.tree)).ref if stored is not None else None
    return isinstance(built, Qualified) and engine_name(built.name)


def _hands_all(call: ast.Call, function: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """`(*args, **kwargs)` of the function's own `*args` and `**kwargs`, nothing else."""
    star, double = function.args.vararg, function.args.kwarg
    if star is None or double is None or function.args.args[1:] or function.args.kwonlyargs:
        return False
    spread = call.args[0] if len(call.args) == 1 and isinstance(call.args[0], ast.Starred) else None
    keyword = call.keywords[0] if len(call.keywords) == 1 and call.keywords[0].arg is None else None
    return (
        spread is not None
        and keyword is not None
        and isinstance(spread.value, ast.Name)
        and spread.value.id == star.arg
        and isinstance(keyword.value, ast.Name)
        and keyword.value.id == double.arg
    )


def _stored_once(actor: Class, attr: str) -> ast.Call | None:
    """The call `__init__` stores in `self.<attr>`, the one write of it in the class."""
    writes = [
        node
        for node in ast.walk(actor.node)
        if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign))
        and any(self_attribute(target) == attr for target in (node.targets if isinstance(node, ast.Assign) else [node.target]))
    ]
    init = init_of(actor.module, actor.node)
    if len(writes) != 1 or init is None or not any(node is writes[0] for node in init.body):
        return None
    value = writes[0].value
    return value if isinstance(value, ast.Call) else None

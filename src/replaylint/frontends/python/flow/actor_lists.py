"""Ray actors of the tree's classes as values (`LLMActor.options(num_gpus=1).remote(pretrain, **extra)`:
an `Actor`, its construction read where it is made), and a list of them grown by `append` in a loop
whose turns are not read one by one (Open-Reasoner-Zero's `create_vllm_engines`: `vllm_engines = []`,
then `for i in range(num_engines): vllm_engines.append(LLMActor.options(...).remote(...))`): a list
every item of which is that actor (`Each`), wherever it is handed on. A list changed any other way,
added to under a branch or by another statement, or read inside the loop, is not read so."""

from __future__ import annotations

import ast

from .callsites import Call
from .engine_names import actor_class
from .facts import NOTHING, Val
from .frames import Evaluates, Frame
from .grown_lists import changes_list
from .module import Module, Placed
from .objects import Class
from .refs import Actor, Each


def actor_made(reader: Evaluates, node: ast.Call, frame: Frame) -> Val | None:
    """`Cls.remote(...)` or `Cls.options(...).remote(...)` of a class of the tree: that actor (None: another call)."""
    named = actor_class(node.func)
    if named is None or not isinstance(reader.evaluate(named, frame).ref, Class):
        return None
    return Val(ref=Actor(node, frame), span=frame.module.span(node))


def appended_actors(reader: Evaluates, name: str, read: Val, frame: Frame, bound: Placed, use: Frame) -> Val:
    """The list `name`, bound to `[]` at `bound` in `frame`'s function, where `use` reads it after
    the one loop that appends an actor to it: a list of that actor (`Each`); else NOTHING."""
    module = frame.module
    if read.value != [] or use.scope is not frame.scope or frame.scope is module.tree or use.at is None:
        return NOTHING
    until = use.at
    if any(guard.opaque for guard in until.guards[len(bound.guards) :]):
        return NOTHING  # read inside a loop
    steps = [
        placed
        for placed in module.statements(frame.scope)
        if bound.order < placed.order < until.order and changes_list(placed.statement, name) is not None
    ]
    step = steps[0] if len(steps) == 1 and changes_list(steps[0].statement, name) else None
    call = step.statement.value if step is not None and isinstance(step.statement, ast.Expr) else None
    inner = step.guards[len(bound.guards) :] if step is not None else ()
    appends = isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr == "append"
    if not appends or len(inner) != 1 or inner[0].loop is None:
        return NOTHING
    assert isinstance(call, ast.Call) and step is not None
    item = reader.evaluate(call.args[0], frame.reading(step))
    return Val(ref=Each(item), span=read.span) if isinstance(item.ref, Actor) else NOTHING


def actors_read(reader: Evaluates, receiver: ast.expr, frame: Frame) -> Val:
    """What a request's receiver holds: an item of a list of actors (`self.vllm_workers[i]`) is the list's item."""
    if isinstance(receiver, ast.Subscript) and not isinstance(receiver.slice, ast.Slice):
        owner = reader.evaluate(receiver.value, frame)
        if isinstance(owner.ref, Each):
            return owner
    return reader.evaluate(receiver, frame)


def held_actors(read: Val) -> list[Actor]:
    """The actors a value holds: one, each item of a list spelt out, or the item of a list of `Each`."""
    if isinstance(read.ref, Actor):
        return [read.ref]
    if isinstance(read.ref, Each) and isinstance(read.ref.item, Val):
        return held_actors(read.ref.item)
    items = read.ref if isinstance(read.ref, tuple) else ()
    return [actor for item in items if isinstance(item, Val) for actor in held_actors(item)]


_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.GeneratorExp)


def comprehension_over(call: Call, receiver: ast.expr) -> ast.expr | None:
    """The list a comprehension of the call's statement takes the receiver from, when the call is
    its element's (`[engine.generate.remote(...) for engine in engines]`: `engines`); its one loop,
    no filter."""
    if not isinstance(receiver, ast.Name) or call.placed is None:
        return None
    for node in ast.walk(call.placed.statement):
        if not isinstance(node, _COMPREHENSIONS) or len(node.generators) != 1 or node.generators[0].ifs:
            continue
        loop = node.generators[0]
        if isinstance(loop.target, ast.Name) and loop.target.id == receiver.id and any(inner is call.node for inner in ast.walk(node.elt)):
            return loop.iter
    return None


def only_actor_with(module: Module, cls: ast.ClassDef, method: str) -> bool:
    """Whether `cls` is a Ray actor of the module (`@ray.remote`, or made with `Cls.remote(...)`)
    and no other actor class of the module has the method: `actor.method.remote(...)` is then a
    call of it (a plain class's method of that name, a manager's `generate`, is never called so)."""
    actors = [c for c in ast.walk(module.tree) if isinstance(c, ast.ClassDef) and _is_actor(module, c)]
    return [c for c in actors if any(getattr(m, "name", "") == method for m in c.body)] == [cls]


def _is_actor(module: Module, cls: ast.ClassDef) -> bool:
    text = module.source.text
    decorated = any("remote" in ast.unparse(decorator) for decorator in cls.decorator_list)
    return decorated or f"{cls.name}.remote(" in text or f"{cls.name}.options(" in text or f"({cls.name})" in text

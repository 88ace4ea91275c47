"""Where a request sent in a closure is read: gpt-oss's `get_infer_next_token(llm)` returns `infer_next_token`, whose
`llm.generate(...)` reaches the engine the factory's call was given. Read at each call of the closure the tree makes
(`infer_next_token(tokens, temperature=args.temperature)` in a script, the closure handed on by `setup_model(path)`),
with what the factory's call gave it; else at each call of the factory alone (the closure's own parameters unknown)."""

from __future__ import annotations

import ast
from dataclasses import replace

from ..asts import walk
from .callsites import Call, calls, closure_sites, led_by
from .engines import MAX_SITES, caller_frames, elsewhere
from .frames import Frame, parameters
from .module import FUNCTIONS, Module
from .reader import Function, Reader, bind

FunctionNode = ast.FunctionDef | ast.AsyncFunctionDef


def closure_frames(reader: Reader, module: Module, closure: FunctionNode, plain: Frame) -> list[Frame]:
    """The frames of a request in a closure a module-level factory returns, when the closure reads
    the factory's parameters; else `plain` alone."""
    factory = module.enclosing(closure)
    if not isinstance(closure, FUNCTIONS) or factory is None or factory not in module.tree.body or not _reads(closure, factory):
        return [plain]
    near = lambda made: elsewhere(reader, module, made, (made.name + "(",))  # noqa: E731
    frames = []
    for home, site in closure_sites(module, closure, near)[:MAX_SITES]:
        for caller in caller_frames(reader, home, site):
            made = reader.evaluate(site.node.func, caller).ref
            if not (isinstance(made, Function) and made.node is closure and made.outer is not None):
                continue  # the name holds another function there
            hop = home.span(site.node)
            args = {name: value.via(hop) for name, value in bind(reader, Function(module, closure), site.node, caller).items()}
            here = ((site.scope, site.placed),) if home is module else ()
            frames.append(replace(plain, args=args, outer=made.outer, sites=here, **led_by(module, home, site, caller)))
    return frames or _made_frames(reader, module, closure, factory, plain) or [plain]


def _made_frames(reader: Reader, module: Module, closure: FunctionNode, factory: FunctionNode, plain: Frame) -> list[Frame]:
    """The closure read with what each call of its factory in the module gave the factory (its own
    parameters unknown: no call of it is in sight)."""
    frames = []
    for site in calls(module, (factory.name + "(",))[:MAX_SITES]:
        if not (isinstance(site.node.func, ast.Name) and site.node.func.id == factory.name):
            continue
        for caller in caller_frames(reader, module, site):
            made = reader.evaluate(site.node, caller).ref
            if isinstance(made, Function) and made.node is closure and made.outer is not None:
                frames.append(replace(plain, outer=made.outer, sites=((site.scope, site.placed),)))
    return frames


def _reads(closure: FunctionNode, factory: FunctionNode) -> bool:
    """Whether the closure reads a parameter of its factory (one it does not take or bind itself)."""
    given = {p.arg for p in parameters(factory)} - {p.arg for p in parameters(closure)}
    read = {n.id for n in walk(closure) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
    bound = {n.id for n in walk(closure) if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)}
    return bool(given & read - bound)


def in_method(module: Module, call: Call, method_frames) -> list[Frame] | None:
    """The frames of a request sent in a function nested in a method (mellea's `async def generate(prompt, request_id)`
    in `generate_from_raw`, gathered by `asyncio.gather`): the method's frames (`method_frames` of the call as if written
    where the function is defined) as the function's enclosing one; None when the call's function is no such function."""
    nested = call.scope
    enclosing = module.enclosing(nested) if isinstance(nested, FUNCTIONS) else None
    if enclosing is None or call.cls is None:
        return None
    defined = next((placed for placed in module.statements(enclosing) if placed.statement is nested), None)
    if defined is None:
        return None
    plain = Frame(module, nested, call.cls, None, call.placed)
    return [replace(plain, outer=outer.reading(defined)) for outer in method_frames(Call(call.node, defined, enclosing, call.cls))]

"""Objects made by a factory classmethod (lm-eval's `TemplateLM.create_from_arg_obj(arg_dict,
extra)`: `return cls(**arg_dict, **extra)`), defined on the class or on a base of it, also in
another module of the tree: `VLLM.create_from_arg_obj(model_args, {...})` is a construction of
`VLLM`, whose `__init__` gets what the factory's `cls(...)` passes, read with the call's arguments.
A factory with more than one `return cls(...)`, or one on a base not read, is not followed."""

from __future__ import annotations

import ast
from typing import Callable, Iterator

from .binding import bind
from .callsites import Call, calls
from .frames import Frame
from .module import FUNCTIONS, Module, Placed
from .objects import Class
from .refs import Function


def factory_constructions(
    reader, module: Module, cls: ast.ClassDef, init: ast.AST, site_frame: Callable[[Module, Call], Frame], elsewhere
) -> Iterator[tuple[Module, Call, dict]]:
    """(the module of the call, the call, the arguments `__init__` gets) of each call of a factory
    classmethod on `cls` (`elsewhere(words)`: those calls in the modules near it)."""
    for home, method, owner in _factories(reader, module, cls):
        made = _made_by(home, method)
        if made is None:
            continue
        words = (f"{cls.name}.{method.name}(",)
        sites = [(module, site) for site in calls(module, words)] or list(elsewhere(words))
        for other, site in sites:
            func = site.node.func
            if not (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == cls.name):
                continue
            given = bind(reader, Function(home, method, owner), site.node, site_frame(other, site), skip_self=True)
            inner = Frame(home, method, owner, given, made[0])
            hop = other.span(site.node)
            args = bind(reader, Function(module, init, cls), made[1], inner)
            yield other, site, {name: value.via(hop) for name, value in args.items()}


def _factories(reader, module: Module, cls: ast.ClassDef) -> Iterator[tuple[Module, ast.FunctionDef | ast.AsyncFunctionDef, ast.ClassDef]]:
    """The classmethods of the class and of its direct bases (of the module or imported from the tree)."""
    owners = [(module, cls)]
    for base in cls.bases:
        found = reader.evaluate(base, Frame(module, module.tree)).ref
        if isinstance(found, Class):
            owners.append((found.module, found.node))
    for home, owner in owners:
        for statement in owner.body:
            if isinstance(statement, FUNCTIONS) and any(getattr(d, "id", None) == "classmethod" for d in statement.decorator_list):
                yield home, statement, owner


def _made_by(module: Module, method: ast.FunctionDef | ast.AsyncFunctionDef) -> tuple[Placed, ast.Call] | None:
    """The factory's one `return cls(...)` (the name of its first parameter called), with its statement."""
    params = [*method.args.posonlyargs, *method.args.args]
    if not params:
        return None
    first = params[0].arg
    found = [
        (placed, placed.statement.value)
        for placed in module.statements(method)
        if isinstance(placed.statement, ast.Return)
        and isinstance(placed.statement.value, ast.Call)
        and isinstance(placed.statement.value.func, ast.Name)
        and placed.statement.value.func.id == first
    ]
    return found[0] if len(found) == 1 and not found[0][0].guards else None  # type: ignore[return-value]

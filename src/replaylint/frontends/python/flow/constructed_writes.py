"""The code of a class of the tree a statement runs before an engine starts, for the writes it
makes into the environment: `config = Config(path, overrides)` runs `Config.__init__` with the
construction's arguments, and `__init__` runs the methods it calls on `self` (`self._init_device()`)
on the same object (FlashRAG's `Config` exports its merged config's `env` mapping there). Only a
class that is its own (`__init__` of its own, no decorator or metaclass) and whose module names
`environ` is entered; a method of a base class is not."""

from __future__ import annotations

import ast

from .binding import bind
from .frames import Evaluates, Frame
from .module import FUNCTIONS, Module
from .objects import Class, Instance
from .refs import Function

Entered = tuple[Module, ast.AST, Frame]  # the module, the function run, the frame its statements are read in


def constructed(statement: ast.stmt) -> ast.Call | None:
    """The call a statement makes as the whole of its value (`config = Config(...)`, `Config(...)`)."""
    if isinstance(statement, ast.Assign) and len(statement.targets) == 1 and isinstance(statement.targets[0], ast.Name):
        value = statement.value
    elif isinstance(statement, ast.Expr):
        value = statement.value
    else:
        return None
    return value if isinstance(value, ast.Call) else None


def construction(reader: Evaluates, call: ast.Call, here: Frame) -> Entered | None:
    """`Cls(...)` of a class of the tree that may write the environment: its `__init__`, read with
    the construction's arguments."""
    cls = reader.evaluate(call.func, here).ref
    if not isinstance(cls, Class) or cls.node.decorator_list or cls.node.keywords or "environ" not in cls.module.source.text:
        return None
    init = _own(cls.node, "__init__")
    if init is None:
        return None
    args = bind(reader, Function(cls.module, init, cls.node), call, here)
    made = reader.evaluate(call, here).ref  # `self.final_config` as the object holds it (`init_objects`)
    fields = made.fields if isinstance(made, Instance) and made.cls.node is cls.node else None
    return cls.module, init, Frame(cls.module, init, cls.node, args, None, here.depth, here.stack, args, instance=fields)


def self_method(reader: Evaluates, call: ast.Call, here: Frame) -> Entered | None:
    """`self.method(...)` where `here` reads a method of an object whose construction is known:
    the class's own method, read on the same object."""
    func = call.func
    on_self = isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "self"
    if not on_self or here.cls is None or here.init is None:
        return None
    method = _own(here.cls, func.attr)  # type: ignore[union-attr]
    if not isinstance(method, ast.FunctionDef) or method.decorator_list:  # a coroutine's body does not run when called
        return None
    args = bind(reader, Function(here.module, method, here.cls), call, here)
    return here.module, method, Frame(here.module, method, here.cls, args, None, here.depth, here.stack, here.init, instance=here.instance)


def _own(cls: ast.ClassDef, name: str) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
    return next((m for m in cls.body if isinstance(m, FUNCTIONS) and m.name == name), None)

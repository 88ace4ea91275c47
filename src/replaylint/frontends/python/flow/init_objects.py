"""An object of a plain class of the tree whose `__init__` sets its attributes (`self.vllm_port =
8000`), read as a record of those attributes, each read with the construction's arguments; and
the object pydra's `@pydra.main(Config)` hands its function (`Config()`, each attribute at the
value `__init__` gives it, which `vllm_port=...` on the command line may change). An attribute
set under a branch, by another method or by more than one statement is not known; a base class
outside the tree may set others."""

from __future__ import annotations

import ast
from dataclasses import replace

from .binding import bind
from .callsites import self_attribute
from .dicts import as_val, entry, writes_into, written
from .each_items import sliced
from .facts import NOTHING, Entry, Kwargs, Val
from .frames import Evaluates, Frame
from .module import FUNCTIONS, Module, Placed
from .objects import Class, Instance, last_name
from .parsers import shown
from .refs import Function, Qualified


def init_object(reader: Evaluates, cls: Class, node: ast.Call, frame: Frame) -> Instance | None:
    """`Config(...)` of a class (no record) that defines `__init__`: the attributes it sets, or None."""
    init = next((m for m in cls.node.body if isinstance(m, FUNCTIONS) and m.name == "__init__"), None)
    hooks = {m.name for m in cls.node.body if isinstance(m, FUNCTIONS)} & _HOOKS
    if init is None or hooks or cls.node.decorator_list or cls.node.keywords:
        return None  # falsy, attributes made otherwise, or a class a decorator or metaclass changes
    module = cls.module
    args = bind(reader, Function(module, init, cls.node), node, frame)
    home = Frame(module, init, cls.node, args, None, frame.depth + 1, frame.stack, args)
    found = Kwargs(reasons=[f"attributes of `{cls.node.name}` its other methods or bases may set"])
    counts = _set_counts(cls.node)
    for placed in module.statements(init):
        name = _self_target(placed.statement)
        if name is None or placed.guards or counts.get(name) != 1:
            continue
        item = entry(reader, home.reading(placed), name, placed.statement, placed.statement.value, None)  # type: ignore[attr-defined]
        found.entries[name] = _with_writes(reader, item, f"self.{name}", home, placed, cls.node)
    return Instance(cls, found, plain=True)


def _with_writes(reader: Evaluates, item: Entry, target: str, home: Frame, placed: Placed, cls: ast.ClassDef) -> Entry:
    """A dict attribute with the writes `__init__` makes into it after it is set (FlashRAG's
    `self.final_config.update(yaml.safe_load(f))`); open where another method writes into it."""
    if not isinstance(item.ref, Kwargs):
        return item
    found = written(reader, item.ref, target, home, placed, None)
    others = [m for m in cls.body if isinstance(m, FUNCTIONS) and m is not home.scope]
    if any(writes_into(home.module, method, target) for method in others):
        found.reasons.append(f"`{target}` written in another method")
    read = as_val(found)
    return replace(item, setting=replace(item.setting, value=read.value, keys=read.keys), ref=found)


_HOOKS = frozenset(("__new__", "__bool__", "__len__", "__getattr__", "__getattribute__", "__setattr__"))


def _self_target(statement: ast.stmt) -> str | None:
    """`x` of `self.x = value`."""
    if not isinstance(statement, ast.Assign) or len(statement.targets) != 1:
        return None
    return self_attribute(statement.targets[0])


def _set_counts(cls: ast.ClassDef) -> dict[str, int]:
    """How many statements of the class's methods write each `self.x` (an augmented write too)."""
    counts: dict[str, int] = {}
    for node in ast.walk(cls):
        targets = (
            node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, (ast.AugAssign, ast.AnnAssign)) else []
        )
        for target in targets:
            for part in ast.walk(target):
                if (attr := self_attribute(part)) is not None:
                    counts[attr] = counts.get(attr, 0) + 1
    return counts


def pydra_config(reader: Evaluates, function: ast.FunctionDef | ast.AsyncFunctionDef, name: str, module: Module) -> Val | None:
    """The object `@pydra.main(Config)` hands to `name`, its function's first parameter, each
    attribute at its `__init__` value (a command-line default); None when pydra does not run it."""
    params = [*function.args.posonlyargs, *function.args.args]
    if not params or params[0].arg != name:
        return None
    top = Frame(module, module.tree)
    for decorator in function.decorator_list:
        if not (isinstance(decorator, ast.Call) and last_name(decorator.func) == "main"):
            continue
        runner = reader.evaluate(decorator.func, top).ref
        given = decorator.args[0] if decorator.args else next((k.value for k in decorator.keywords if k.arg == "base"), None)
        if not (isinstance(runner, Qualified) and runner.name == "pydra.main") or given is None:
            continue
        cls = reader.evaluate(given, top).ref
        made = ast.copy_location(ast.Call(func=given, args=[], keywords=[]), decorator)
        found = init_object(reader, cls, made, top) if isinstance(cls, Class) else None
        return Val(ref=_from_command_line(found, module, decorator)) if found is not None else NOTHING
    return None


def _from_command_line(made: Instance, module: Module, decorator: ast.expr) -> Instance:
    """Each attribute resting on the command line not setting it (`vllm_port=9000`)."""
    entries = {}
    for name, item in made.fields.entries.items():
        span = item.setting.value_span or item.setting.span
        whose = f"{name} comes from pydra's {name}=..., default {shown(item.setting.value)} ({module.line(decorator)})"
        entries[name] = replace(item, assumptions=(*item.assumptions, (whose, span)))
    return replace(made, fields=made.fields.rebuilt(entries), cli=True)


def item_of(reader: Evaluates, owner: Val, node: ast.Subscript, frame: Frame) -> Val:
    """`config["generation_params"]` of an object of a plain class that defines `__getitem__`
    (FlashRAG's `Config`: `return self.final_config.get(key)`): the method's return with the key
    bound and the object's attributes as `self`'s; else the item or slice `each_items` reads."""
    made = owner.ref
    body = getattr(made.cls.node, "body", ()) if isinstance(made, Instance) and made.plain else ()
    method = next((m for m in body if isinstance(m, FUNCTIONS) and m.name == "__getitem__" and not m.decorator_list), None)
    if method is None or isinstance(node.slice, ast.Slice):
        return sliced(owner, node)
    getter = ast.copy_location(ast.Attribute(value=node.value, attr="__getitem__", ctx=ast.Load()), node)
    call = ast.copy_location(ast.Call(func=getter, args=[node.slice], keywords=[]), node)
    function = Function(made.cls.module, method, made.cls.node)  # type: ignore[union-attr]
    return reader.returned(function, call, frame, (frame.module.span(node),), instance=made.fields)  # type: ignore[union-attr]

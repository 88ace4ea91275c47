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
from .dicts import entry, written
from .facts import NOTHING, Entry, Kwargs, Val
from .frames import Evaluates, Frame
from .module import FUNCTIONS, Module
from .objects import Class, Instance, last_name
from .parsers import shown
from .refs import Function, Partial, Qualified


def init_object(reader: Evaluates, cls: Class, node: ast.Call, frame: Frame, partial: Partial | None = None) -> Instance | None:
    """`Config(...)` of a class (no record) that defines `__init__` (or a call of a `partial` of it):
    the attributes it sets, or None."""
    init = next((m for m in cls.node.body if isinstance(m, FUNCTIONS) and m.name == "__init__"), None)
    hooks = {m.name for m in cls.node.body if isinstance(m, FUNCTIONS)} & _HOOKS
    if init is None or hooks or cls.node.decorator_list or cls.node.keywords:
        return None  # falsy, attributes made otherwise, or a class a decorator or metaclass changes
    module = cls.module
    args = bind(reader, Function(module, init, cls.node), node, frame, partial=partial)
    home = Frame(module, init, cls.node, args, None, frame.depth + 1, frame.stack, args)
    found = Kwargs(reasons=[f"attributes of `{cls.node.name}` its other methods or bases may set"])
    counts, keys = _set_counts(cls.node)
    for placed in module.statements(init):
        name = _self_target(placed.statement)
        if name is None or placed.guards or counts.get(name) != 1 or None in keys.get(name, ()):
            continue
        made = entry(reader, home.reading(placed), name, placed.statement, placed.statement.value, None)  # type: ignore[attr-defined]
        if isinstance(made.ref, Kwargs):  # `self.final_config.update(yaml.safe_load(f))` later in `__init__`
            made = replace(made, ref=written(reader, made.ref, f"self.{name}", home, placed, None))
        if not _changed_otherwise(cls.node, init, f"self.{name}", module):
            found.entries[name] = _keys_written(made, keys.get(name, set()))
    return Instance(cls, found, plain=True)


_CHANGES = frozenset(("update", "setdefault", "pop", "popitem", "clear", "__setitem__", "__delitem__"))


def _changed_otherwise(cls: ast.ClassDef, init: ast.AST, target: str, module: Module) -> bool:
    """Whether a method other than `__init__` changes the mapping `target` otherwise than by
    writing a key spelt out (`self.final_config.update(...)`, `del self.final_config[k]`)."""
    called, written = _changes(cls, init, module)
    return target in called or any(target in text for text in written)


def _changes(cls: ast.ClassDef, init: ast.AST, module: Module) -> tuple[set[str], list[str]]:
    """What the methods other than `__init__` call a mapping's changing method on, and the texts of their
    deletions and augmented writes: one walk a class, kept on its module (each attribute asks)."""
    known: dict = module.__dict__.setdefault("_class_changes", {})
    if (cls, init) not in known:
        called, written = set(), []
        for method in (m for m in cls.body if isinstance(m, FUNCTIONS) and m is not init):
            for node in ast.walk(method):
                if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _CHANGES:
                    called.add(module.text(node.func.value))
                if isinstance(node, (ast.Delete, ast.AugAssign)):
                    written.append(module.text(node))
        known[(cls, init)] = (called, written)
    return known[(cls, init)]


def _keys_written(made: Entry, keys: set[str | None]) -> Entry:
    """A mapping attribute whose keys the class's methods write (`self.final_config["gpu_num"] =
    gpu_num`): those keys not known, the others as `__init__` makes them."""
    if not keys or not isinstance(made.ref, Kwargs):
        return made
    kept = made.ref.rebuilt({key: value for key, value in made.ref.entries.items() if key not in keys})
    kept.reasons.append(f"keys the class's methods write: {', '.join(sorted(map(str, keys)))}")
    return replace(made, ref=kept)


_HOOKS = frozenset(("__new__", "__bool__", "__len__", "__getattr__", "__getattribute__", "__setattr__"))


def _self_target(statement: ast.stmt) -> str | None:
    """`x` of `self.x = value`."""
    if not isinstance(statement, ast.Assign) or len(statement.targets) != 1:
        return None
    return self_attribute(statement.targets[0])


def _set_counts(cls: ast.ClassDef) -> tuple[dict[str, int], dict[str, set[str | None]]]:
    """How many statements of the class's methods write each `self.x` (an augmented write too),
    and the keys they write into one (`self.x["key"] = ...`; None: a key not spelt out)."""
    counts: dict[str, int] = {}
    keys: dict[str, set[str | None]] = {}
    for node in ast.walk(cls):
        targets = (
            node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, (ast.AugAssign, ast.AnnAssign)) else []
        )
        for target in targets:
            written = _key_write(target)
            if written is not None:
                keys.setdefault(written[0], set()).add(written[1])
                continue
            for part in ast.walk(target):
                if (attr := self_attribute(part)) is not None:
                    counts[attr] = counts.get(attr, 0) + 1
    return counts, keys


def _key_write(target: ast.expr) -> tuple[str, str | None] | None:
    """(`x`, `"key"`) of a target `self.x["key"]` (or deeper, `self.x["key"][...]`)."""
    while isinstance(target, ast.Subscript) and isinstance(target.value, ast.Subscript):
        target = target.value
    if not isinstance(target, ast.Subscript) or (attr := self_attribute(target.value)) is None:
        return None
    key = target.slice.value if isinstance(target.slice, ast.Constant) and isinstance(target.slice.value, str) else None
    return attr, key


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


def item_call(reader: Evaluates, node: ast.Subscript, owner: Instance, frame: Frame) -> Val:
    """`config["generation_params"]` of an object whose class defines `__getitem__` (FlashRAG's
    `Config.__getitem__`: `return self.final_config.get(item)`): that method's return with the key."""
    method = next((m for m in owner.cls.node.body if isinstance(m, FUNCTIONS) and m.name == "__getitem__"), None)
    if method is None:
        return NOTHING
    calls: dict = reader.__dict__.setdefault("_item_calls", {})
    if id(node) not in calls:  # one call per subscript, kept with it (the reader's caches go by node)
        call = ast.fix_missing_locations(ast.copy_location(ast.Call(func=node.value, args=[node.slice], keywords=[]), node))
        calls[id(node)] = (node, call)
    function = Function(owner.cls.module, method, owner.cls.node)
    return reader.returned(function, calls[id(node)][1], frame, instance=owner.fields)  # type: ignore[attr-defined]

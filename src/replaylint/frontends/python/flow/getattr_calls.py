"""`getattr(obj, name, default)` of a name the reader knows: the attribute where the object may
have it, the default where it cannot (a record whose fields are all known, a namespace of known
keys, `self` of a class that never sets it, a `dict`: its keys are no attributes)."""

from __future__ import annotations

import ast
import re

from ..asts import walk
from .class_order import mro
from .facts import NOTHING, Val
from .frames import Frame, binds, reaching
from .members import Reader
from .module import Module
from .objects import Instance, field


def attribute_named(reader: Reader, node: ast.Call, frame: Frame) -> Val:
    """`getattr(obj, name)`, `getattr(obj, name, default)` of a name the reader knows (a literal,
    or a loop's name in its turn): the attribute; the default where the object cannot have it (a
    record whose fields are all known, `self` of a class that never sets it), else unknown."""
    name = reader.evaluate(node.args[1], frame).value if len(node.args) in (2, 3) and not node.keywords else None
    if not isinstance(name, str) or not name.isidentifier():
        return NOTHING
    attribute = ast.copy_location(ast.Attribute(node.args[0], name, ast.Load()), node)
    held = node.args[0]
    if len(node.args) == 2:
        return reader.evaluate(attribute, frame)
    if isinstance(held, ast.Name) and held.id == "self" and frame.cls is not None:
        return reader.evaluate(node.args[2] if never_set(reader, frame, name) else attribute, frame)
    if surely_dict(held, frame):  # Qwen's `getattr(kwargs, 'quantization', None)` of `**kwargs`: the default, key or not
        return NOTHING if name in _DICT_ATTRIBUTES else reader.evaluate(node.args[2], frame)
    owner = reader.evaluate(held, frame)
    if owner.kwargs is not None and owner.ref is None:  # a namespace of known keys (`SimpleNamespace(a=1)`)
        held_keys = owner.kwargs
        if name in held_keys.entries or held_keys.reasons or name in _DICT_ATTRIBUTES or _stored(frame.module, name):
            return reader.evaluate(attribute, frame) if name in held_keys.entries else NOTHING
        return reader.evaluate(node.args[2], frame)
    if not isinstance(owner.ref, Instance) or owner.ref.fields.reasons:
        return NOTHING
    if name in owner.ref.fields.entries:
        return field(reader, owner, name, frame)
    return reader.evaluate(node.args[2], frame)


_DICT_ATTRIBUTES = frozenset(dir(dict))


def surely_dict(held: ast.expr, frame: Frame) -> bool:
    """Whether `held` is a `dict` as such wherever it is read: a dict display or `dict(...)`, or a
    name of the function read in that is its `**kwargs` parameter or bound to those only, never
    rebound otherwise (no `global`, `nonlocal`, augmented or unpacking write; a closure's name is
    not judged)."""
    if _made_dict(held, frame):
        return True
    function = frame.function
    if not isinstance(held, ast.Name) or function is None:
        return False
    name, arguments = held.id, function.args
    starred = arguments.kwarg is not None and arguments.kwarg.arg == name
    if not starred and any(a.arg == name for a in (*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs, arguments.vararg) if a):
        return False
    displayed: set[int] = set()  # the targets of `name = {...}`
    stores: list[ast.Name] = []
    for node in walk(function):
        if _declares(node, name):
            return False
        if isinstance(node, ast.Assign) and _made_dict(node.value, frame):
            displayed.update(id(target) for target in node.targets if isinstance(target, ast.Name))
        elif isinstance(node, ast.Name) and node.id == name and not isinstance(node.ctx, ast.Load):
            stores.append(node)
    return all(id(node) in displayed for node in stores) and (starred or bool(stores))


def _made_dict(value: ast.expr, frame: Frame) -> bool:
    """A dict display, or a call of the built-in `dict` (no name `dict` bound in the tree)."""
    if isinstance(value, (ast.Dict, ast.DictComp)):
        return True
    called = value.func if isinstance(value, ast.Call) else None
    return isinstance(called, ast.Name) and called.id == "dict" and reaching(frame, "dict") is None


def _declares(node: ast.AST, name: str) -> bool:
    """A binding of `name` that is no assignment to it: `global`, `nonlocal`, a definition, an import, a match capture."""
    if isinstance(node, (ast.Global, ast.Nonlocal)):
        return name in node.names
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.ExceptHandler, ast.MatchAs, ast.MatchStar)):
        return node.name == name
    if isinstance(node, ast.alias):
        return (node.asname or node.name.split(".")[0]) == name
    return isinstance(node, ast.MatchMapping) and node.rest == name


def never_set(reader: Reader, frame: Frame, attr: str) -> bool:
    """Whether the object `self` is in `frame` (its construction followed) can have no attribute
    `attr`: no class of its MRO (all of the module) defines or annotates it or a `__getattr__`, none
    is decorated but as a dataclass, its module stores no `.attr` on anything and uses no
    `setattr`/`__dict__`/`vars`, and no module near it that imports it names `attr`."""
    module, cls = frame.module, frame.cls
    order = mro(module, cls) if cls is not None and frame.init is not None else None
    if order is None or any(not _dataclass(decorator) for c in order for decorator in c.decorator_list):
        return False
    hooks = (attr, "__getattr__", "__getattribute__")
    if any(_defines(statement, hooks) for c in order for statement in c.body):
        return False
    if re.search(r"\bsetattr\(|__dict__|\bvars\(", module.source.text) or _stored(module, attr):
        return False
    return not reader.tree.named_by_importers(module.path, attr)


def _dataclass(decorator: ast.expr) -> bool:
    made = decorator.func if isinstance(decorator, ast.Call) else decorator
    return ast.unparse(made) in ("dataclass", "dataclasses.dataclass")


def _defines(statement: ast.stmt, names: tuple[str, ...]) -> bool:
    if isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name):
        return statement.target.id in names  # a field, with or without a default
    return any(binds(statement, name) is not None for name in names)


def _stored(module: Module, attr: str) -> bool:
    """Whether the module writes or deletes an attribute `attr` of anything (`self.attr = ...`)."""
    return any(isinstance(node, ast.Attribute) and node.attr == attr and not isinstance(node.ctx, ast.Load) for node in walk(module.tree))

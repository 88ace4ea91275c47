"""The defaults a program reads off a function's signature with a dict comprehension over
`inspect.signature(predict).parameters.items()`: a Cog predictor's test prediction (replicate/cog-vllm's
`{key: param.default.default for key, param in ... if hasattr(param.default, "default")}`, each
parameter's cog `Input(default=...)`, pydantic's `Field(default=...)`), or the plain defaults
(`{k: p.default for k, p in ... if p.default is not inspect.Parameter.empty}`).
Each parameter is read where its default is written; a parameter the filter cannot decide (a
default made by a call the reader does not know) or whose value is not there (an `Input` without
a default) leaves the mapping open."""

from __future__ import annotations

import ast
import os

from .binding import parameter_defaults
from .dicts import as_val, entry
from .facts import NOTHING, Kwargs, Val
from .frames import Evaluates, Frame, parameters
from .module import FUNCTIONS
from .objects import last_name
from .refs import Function, Qualified

_SIGNATURES = ("inspect.signature",)
_FIELDS = (
    "cog.Input",
    "cog.types.Input",
    "pydantic.Field",
    "pydantic.fields.Field",
)  # objects whose `.default` is the value the framework fills in
_EMPTY = ("inspect.Parameter.empty", "inspect._empty", "Parameter.empty")


def signature_defaults(reader: Evaluates, node: ast.DictComp, frame: Frame) -> Val | None:
    """The mapping the comprehension makes; None when it is not one over a signature's parameters."""
    shape = _shape(node)
    if shape is None:
        return None
    signed, param, inner, tests = shape
    if not (isinstance(signed.func, (ast.Name, ast.Attribute)) and len(signed.args) == 1 and not signed.keywords):
        return None
    called = reader.evaluate(signed.func, frame).ref
    if not (isinstance(called, Qualified) and called.name in _SIGNATURES):
        return None
    function = _function(reader, signed.args[0], node, frame)
    if function is None:
        return NOTHING
    home = Frame(function.module, function.module.tree)
    found = Kwargs(sources={frame.module.span(node)})
    defaults = parameter_defaults(function.node)
    where = f"{os.path.basename(frame.module.path)}:{node.lineno}"
    for name in [p.arg for p in parameters(function.node)]:
        default = defaults.get(name)
        keeps = [_holds(reader, test, param, default, home) for test in tests]
        if False in keeps:
            continue
        written = _value(default, inner)
        if None in keeps or written is None:
            found.reasons.append(f"`{name}` of the signature read at {where}")
            continue
        first, value = written
        found.entries[name] = entry(reader, home, name, first, value, None)
    return as_val(found, frame.module.span(node))


_Shape = tuple[ast.Call, str, bool, list[ast.expr]]


def _shape(node: ast.DictComp) -> _Shape | None:
    """(the `signature(...)` call, the parameter's name, whether the value is `.default.default`,
    the filters) of `{key: param.default[.default] for key, param in signature(f).parameters.items() if ...}`."""
    if len(node.generators) != 1 or node.generators[0].is_async:
        return None
    generator = node.generators[0]
    iterated, target = generator.iter, generator.target
    if not (isinstance(iterated, ast.Call) and isinstance(iterated.func, ast.Attribute) and iterated.func.attr == "items"):
        return None
    over = iterated.func.value
    if not (isinstance(over, ast.Attribute) and over.attr == "parameters" and isinstance(over.value, ast.Call)):
        return None
    if not (isinstance(target, ast.Tuple) and len(target.elts) == 2 and all(isinstance(e, ast.Name) for e in target.elts)):
        return None
    key, param = (e.id for e in target.elts)  # type: ignore[attr-defined]
    if not (_named(node.key, key) or (isinstance(node.key, ast.Attribute) and node.key.attr == "name" and _named(node.key.value, param))):
        return None
    value = node.value
    inner = isinstance(value, ast.Attribute) and value.attr == "default" and _default_of(value.value, param)
    if not (inner or _default_of(value, param)):
        return None
    return over.value, param, inner, list(generator.ifs)


def _function(reader: Evaluates, named: ast.expr, node: ast.DictComp, frame: Frame) -> Function | None:
    """The function whose signature is read: one the name or `self.m` holds, or a method of the class
    whose body holds the comprehension (`inspect.signature(predict)` written in `class Predictor:`)."""
    held = reader.evaluate(named, frame).ref
    if isinstance(held, Function):
        return held
    if not isinstance(named, ast.Name):
        return None
    for cls in ast.walk(frame.module.tree):
        if isinstance(cls, ast.ClassDef) and any(
            node in ast.walk(statement) for statement in cls.body if not isinstance(statement, FUNCTIONS)
        ):
            method = next((s for s in cls.body if isinstance(s, FUNCTIONS) and s.name == named.id), None)
            return Function(frame.module, method, cls) if method is not None else None
    return None


def _holds(reader: Evaluates, test: ast.expr, param: str, default: ast.expr | None, home: Frame) -> bool | None:
    """Whether a filter keeps a parameter: `hasattr(param.default, "default")` (a cog `Input`, a
    pydantic `Field`), `param.default is not inspect.Parameter.empty` (any default); None: not known."""
    if isinstance(test, ast.Call) and last_name(test.func) == "hasattr" and len(test.args) == 2 and _default_of(test.args[0], param):
        asked = test.args[1]
        if not (isinstance(asked, ast.Constant) and asked.value == "default"):
            return None
        if default is None or isinstance(default, ast.Constant):
            return False  # `inspect.Parameter.empty`, a number, a text, None: none has `.default`
        return True if _field(reader, default, home) else None
    if isinstance(test, ast.Compare) and len(test.ops) == 1 and _default_of(test.left, param):
        if not (isinstance(test.ops[0], (ast.IsNot, ast.NotEq)) and _empty(reader, test.comparators[0], home)):
            return None
        return default is not None
    return None


def _value(default: ast.expr | None, inner: bool) -> tuple[ast.AST, ast.expr] | None:
    """Where a kept parameter's value is written: its default, or the `default=` of its `Input(...)`."""
    if default is None or not inner:
        return None if default is None else (default, default)
    if not isinstance(default, ast.Call):
        return None
    given = next((k for k in default.keywords if k.arg == "default"), None)
    if given is not None:
        return given, given.value
    return (default.args[0], default.args[0]) if default.args and not isinstance(default.args[0], ast.Starred) else None


def _field(reader: Evaluates, default: ast.expr, home: Frame) -> bool:
    made = reader.evaluate(default.func, home).ref if isinstance(default, ast.Call) else None
    return isinstance(made, Qualified) and made.name in _FIELDS


def _empty(reader: Evaluates, node: ast.expr, home: Frame) -> bool:
    read = reader.evaluate(node, home).ref
    return isinstance(read, Qualified) and read.name in _EMPTY


def _default_of(node: ast.expr, param: str) -> bool:
    return isinstance(node, ast.Attribute) and node.attr == "default" and _named(node.value, param)


def _named(node: ast.expr, name: str) -> bool:
    return isinstance(node, ast.Name) and node.id == name

"""Which object a method call's receiver is: the construction a name is bound to where it is read
(`engine = Rollout(cfg)`, then `engine.generate(...)`), and whether that is an object of a given
class (`Rollout(...)`, `self` in its methods, `BACKEND_MAP[args.backend](...)` of a dict of
classes that holds it)."""

from __future__ import annotations

import ast

from ....model import Span
from .callsites import Call
from .factory_objects import made_by_factory
from .frames import Evaluates, Frame, binds, reaching
from .module import Module
from .objects import Class
from .partial_classes import class_partial, made_class
from .refs import Function


def in_registry(reader: Evaluates, func: ast.Subscript, frame: Frame, cls: ast.ClassDef) -> bool:
    """Whether `MODELS[name]` is an entry of a dict of classes that holds `cls`: the one a key
    known here picks (`MODELS["vllm"]`), else any."""
    registry = reader.evaluate(func.value, frame).kwargs
    key = reader.evaluate(func.slice, frame).value
    if registry is not None and isinstance(key, str):
        return made_class(getattr(registry.entries.get(key), "ref", None)) is cls
    return registry is not None and any(made_class(e.ref) is cls for e in registry.entries.values())


def names_definition(reader: Evaluates, frame: Frame, receiver: ast.expr, definition: ast.AST) -> bool:
    """Whether `receiver` is the class or function `definition` itself where `frame` reads it
    (`Handler.generate(...)` of a classmethod): its name, the entry a known key picks from a dict
    (`HANDLERS["openai"]`, a registry its decorators fill), or, for a key not known, the one every
    entry of a registry known whole holds (any other key fails). A registry whose entries differ,
    read with a key not known, names none."""
    read = reader.evaluate(receiver, frame)
    if isinstance(read.ref, (Class, Function)) or not isinstance(receiver, ast.Subscript):
        return isinstance(read.ref, (Class, Function)) and read.ref.node is definition
    if reader.evaluate(receiver.slice, frame).known:
        return False  # a key the registry does not hold (or holds under a branch): not this class
    registry = reader.evaluate(receiver.value, frame).kwargs
    if registry is None or registry.reasons or not registry.entries:
        return False
    return all(getattr(e.ref, "node", None) is definition and not e.guards for e in registry.entries.values())


def bound_call(module: Module, frame: Frame, receiver: ast.expr) -> Span | None:
    """The span of the call the receiver is (`Engine.remote(...)`) or a name is bound to where it is read."""
    made = bound_node(frame, receiver)
    return module.span(made) if made is not None else None


def bound_node(frame: Frame, receiver: ast.expr) -> ast.Call | None:
    if isinstance(receiver, ast.Call):
        return receiver
    if isinstance(receiver, ast.Attribute) and isinstance(receiver.value, ast.Name):
        receiver = receiver.value  # `r.llm.generate(...)`: the engine of the object `r = Rollout(...)` made
    binding = reaching(frame, receiver.id) if isinstance(receiver, ast.Name) and receiver.id != "self" else None
    if binding is not None and binding.kind == "value" and isinstance(binding.value, ast.Call) and binding.element is None:
        return binding.value
    return None


def receiver_made(reader: Evaluates, module: Module, site: Call, cls: ast.ClassDef) -> bool:
    func = site.node.func
    frame = Frame(module, site.scope, site.cls, None, site.placed)
    return isinstance(func, ast.Attribute) and of_class(reader, frame, func.value, cls)


def of_class(reader: Evaluates, frame: Frame, receiver: ast.expr, cls: ast.ClassDef) -> bool:
    """Whether `receiver` is an object of `cls` where `frame` reads it (`self` in its methods,
    `Cls(...)`, `BACKENDS[name](...)` of a dict of classes that holds it, a function's call that
    returns one, a name bound to one)."""
    if isinstance(receiver, ast.Name) and receiver.id == "self":
        return frame.cls is cls
    binding = reaching(frame, receiver.id) if isinstance(receiver, ast.Name) else None
    if binding is not None and binding.kind == "opaque" and isinstance(receiver, ast.Name):
        return _made_on_every_branch(frame, receiver.id, cls)
    value = receiver if isinstance(receiver, ast.Call) else binding.value if binding is not None and binding.kind == "value" else None
    if binding is not None and binding.element is not None:  # `llm, mgr = create_engine(...)`: an item of what a factory returns
        return isinstance(value, ast.Call) and made_by_factory(reader, frame, value, cls, binding.element)
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Subscript):
        return in_registry(reader, value.func, frame, cls)
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == cls.name:
        return True
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and value.func.attr == cls.name:
        return made_class(reader.evaluate(value.func, frame).ref) is cls  # `vllm_sampler.VllmSampler(...)` of the imported module
    if isinstance(value, ast.Call) and class_partial(reader, value.func, frame, cls) is not None:
        return True  # `make()` of `make = partial(Cls, ...)`
    return isinstance(value, ast.Call) and made_by_factory(reader, frame, value, cls)  # `get_engine("vllm-...")`


def _made_on_every_branch(frame: Frame, name: str, cls: ast.ClassDef) -> bool:
    """`if q: model = VLLM(name, quantization="AWQ")` / `else: model = VLLM(name)`: every binding of
    the name in its scope (none a parameter) is a construction of `cls`, whichever branch ran."""
    scope = frame.scope
    if isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef)) and any(
        name == a.arg for a in ast.walk(scope.args) if isinstance(a, ast.arg)
    ):
        return False
    placed = frame.module.binders(scope, name)
    values = [
        binding.value if binding is not None and binding.kind == "value" and binding.element is None else None
        for binding in (binds(p.statement, name) for p in placed)
    ]
    return bool(values) and all(isinstance(v, ast.Call) and isinstance(v.func, ast.Name) and v.func.id == cls.name for v in values)

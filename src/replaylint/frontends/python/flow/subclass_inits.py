"""The arguments a base class's `__init__` gets from the subclasses made in the tree, when the
base itself is made nowhere (oat's `PPOActor` builds the engine, `ZeroMathActor(PPOActor)` is
what the driver makes): each subclass's `super().__init__(...)` read with what its own
construction passed, or, for a subclass without an `__init__` of its own, its construction's
arguments themselves (lmms-eval's `class VLLM(VLLMSimple)`). A subclass is one of the base's module, else one of a module near it that
imports it (`from samplers.base import VLLMSampler`, `class Replay(base.VLLMSampler)`)."""

from __future__ import annotations

import ast
from typing import Callable, Iterator

from .binding import bind
from .callsites import Call
from .facts import NOTHING
from .frames import Frame, parameters, reaching
from .module import FUNCTIONS, Module, Placed
from .objects import Class
from .refs import Function

_MAX_MODULES = 6  # modules near the base's opened for its subclasses

Constructions = Callable[[Module, ast.ClassDef], list[tuple[Module, Call]]]


def through_subclasses(
    reader, module: Module, cls: ast.ClassDef, init: ast.AST, made: Constructions, site_frame: Callable[[Module, Call], Frame]
) -> Iterator[dict]:
    """What `cls.__init__` (`init`) is given by each construction (`made(home, sub)`) of each
    subclass whose `__init__` calls `super().__init__(...)`, read where the construction is (`site_frame`)."""
    for home, sub in _subclasses(reader, module, cls):
        for other, site in made(home, sub):
            args = given_up(reader, Function(module, init, cls), home, sub, site.node, site_frame(other, site))
            if args is not None:
                yield args


def given_up(reader, init: Function, home: Module, sub: ast.ClassDef, construction: ast.Call, site_frame: Frame) -> dict | None:
    """What the base's `__init__` (`init`) is given by a construction of its subclass `sub` (of
    `home`): the construction's arguments for a subclass without an `__init__`, else what its
    `super().__init__(...)` passes; None where it has no such call."""
    sub_init = next((m for m in sub.body if isinstance(m, FUNCTIONS) and m.name == "__init__"), None)
    hop = site_frame.module.span(construction)
    if sub_init is None:  # `class VLLM(VLLMSimple)`: its construction runs the base's `__init__`
        if len(sub.bases) != 1:
            return None
        args = bind(reader, init, construction, site_frame)
        return {name: value.via(hop) for name, value in args.items()}
    found = super_init(home, sub_init)
    if found is None:
        return None
    placed, super_call = found
    sub_args = bind(reader, Function(home, sub_init, sub), construction, site_frame)
    sub_frame = Frame(home, sub_init, sub, {name: value.via(hop) for name, value in sub_args.items()}, placed)
    args = bind(reader, init, super_call, sub_frame)
    return {name: value.via(home.span(super_call)) for name, value in args.items()}


def _subclasses(reader, module: Module, cls: ast.ClassDef) -> list[tuple[Module, ast.ClassDef]]:
    """The module's classes whose base is `cls` by name, else those of the modules near it that
    import it whose base the reader resolves to `cls`."""
    own = [
        (module, sub)
        for sub in module.tree.body
        if isinstance(sub, ast.ClassDef) and any(isinstance(base, ast.Name) and base.id == cls.name for base in sub.bases)
    ]
    return own or list(_subclasses_elsewhere(reader, module, cls))


def _subclasses_elsewhere(reader, module: Module, cls: ast.ClassDef) -> Iterator[tuple[Module, ast.ClassDef]]:
    opened = 0
    for path, text in reader.tree.importers_naming(module.path, (cls.name,)):
        opened += 1
        other = reader.tree.open_file(path, text) if opened <= _MAX_MODULES else None
        if other is None:
            continue
        top = Frame(other, other.tree)
        for sub in other.tree.body:
            if isinstance(sub, ast.ClassDef) and any(_is(reader.evaluate(base, top).ref, cls) for base in sub.bases):
                yield other, sub


def _is(found: object, cls: ast.ClassDef) -> bool:
    return isinstance(found, Class) and found.node is cls


def super_init(module: Module, init: ast.AST) -> tuple[Placed, ast.Call] | None:
    """The statement of a `super().__init__(...)` call in `init` and the call."""
    for placed in module.statements(init):
        for node in ast.walk(placed.statement):
            func = node.func if isinstance(node, ast.Call) else None
            if isinstance(func, ast.Attribute) and func.attr == "__init__" and isinstance(func.value, ast.Call):
                if isinstance(func.value.func, ast.Name) and func.value.func.id == "super":
                    return placed, node
    return None


def passed_up(reader, module: Module, order: list[ast.ClassDef], method: ast.AST, given: dict) -> dict:
    """What `method`, the `__init__` of a class of `order` (an object's MRO, all of `module`),
    is given by the object's construction (`given`: its first `__init__`'s arguments): through each
    `super().__init__(...)` up the order. Each parameter unknown where a step is no such call
    (`Base.__init__(self, ...)`, a base's `__init__` never run)."""
    inits = [(cls, init) for cls in order for init in cls.body if isinstance(init, FUNCTIONS) and init.name == "__init__"]
    args = given
    for number, (cls, init) in enumerate(inits):
        if init is method:
            return args
        found = super_init(module, init)
        if found is None or number + 1 == len(inits):
            break
        placed, call = found
        upper_cls, upper = inits[number + 1]
        args = bind(reader, Function(module, upper, upper_cls), call, Frame(module, init, cls, args, placed))
    return {param.arg: NOTHING for param in parameters(method)}  # type: ignore[arg-type]


def inherits(reader, made: Class, cls: ast.ClassDef, name: str) -> bool:
    """Whether `made` is a subclass with `cls` its one base that does not define the method `name`
    (lagent's `ReplayVllmModel(VllmModel)`: `generate` is `VllmModel`'s)."""
    sub = made.node
    if sub is cls or len(sub.bases) != 1 or any(isinstance(s, FUNCTIONS) and s.name == name for s in sub.body):
        return False
    base = reader.evaluate(sub.bases[0], Frame(made.module, made.module.tree)).ref
    return isinstance(base, Class) and base.node is cls


def by_subclass(reader, home: Module, site: Call, cls: ast.ClassDef) -> bool:
    """`llm.generate(...)` of an object of a subclass of `cls` made where the call is (lagent's `ReplayVllmModel`)."""
    func = site.node.func
    receiver = func.value if isinstance(func, ast.Attribute) else None
    return receiver is not None and of_subclass(reader, Frame(home, site.scope, site.cls, None, site.placed), receiver, cls, func.attr)


def of_subclass(reader, frame: Frame, receiver: ast.expr, cls: ast.ClassDef, name: str) -> bool:
    """Whether `receiver` is bound to a construction of a subclass of `cls` that keeps its method `name`."""
    binding = reaching(frame, receiver.id) if isinstance(receiver, ast.Name) and receiver.id != "self" else None
    made = binding.value if binding is not None and binding.kind == "value" and binding.element is None else None
    sub = reader.evaluate(made.func, frame).ref if isinstance(made, ast.Call) else None
    return isinstance(sub, Class) and inherits(reader, sub, cls, name)

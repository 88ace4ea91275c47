"""A method that builds an engine, read with the arguments of each call of it on an object of
its class: `e = Engine(cfg)` then `e.start(logprobs_mode="raw_logprobs")`, in the class's
module or in a module near it that imports the class (`from engine import Engine`). The
object's construction gives `__init__`'s arguments (`self.cfg`). A method no caller in the tree
calls has its `**kwargs` judged as written (`plain_method`), as a module-level function's are."""

from __future__ import annotations

import ast
from dataclasses import replace
from typing import Callable, Iterable

from .binding import bind
from .callsites import Call, calls
from .class_order import init_of
from .facts import Kwargs
from .frames import Evaluates, Frame, expressions, reaching
from .module import FUNCTIONS, Module
from .objects import Class, Instance, instance, is_record
from .partial_classes import bound_made
from .refs import Function, Partial
from .subclass_inits import given_up, inherits

Sites = Callable[[Callable[[Module, Call], bool], tuple[str, ...]], Iterable[tuple[Module, Call]]]


def method_frames(
    reader: Evaluates,
    module: Module,
    cls: ast.ClassDef,
    method: ast.FunctionDef | ast.AsyncFunctionDef,
    plain: Frame,
    elsewhere: Sites,
    limit: int,
) -> list[Frame]:
    """The method's frame for each call `obj.method(...)` whose `obj` is made by `cls(...)` where
    the call reads it (empty: none in the tree)."""
    if method.name.startswith("__") or cls not in module.tree.body:
        return []
    words = (f".{method.name}(",)
    init = init_of(module, cls)  # a base's, for a class with none of its own
    sites = [(module, site) for site in calls(module, words) if _made_by(reader, module, site, method.name, cls) is not None]
    if not sites:
        sites = list(elsewhere(lambda other, site: _made_by(reader, other, site, method.name, cls) is not None, words))
    if not sites:
        return _made_elsewhere(reader, module, cls, init, plain, elsewhere, limit)
    frames = []
    for home, site in sites[:limit]:
        site_frame = Frame(home, site.scope, site.cls, None, site.placed)
        construction = _made_by(reader, home, site, method.name, cls)
        assert construction is not None
        hop = home.span(site.node)
        args = bind(reader, Function(module, method, cls), site.node, site_frame)
        made = _init_args(reader, Function(module, init, cls), home, site, construction, site_frame) if init is not None else {}
        if made is None:
            continue
        frames.append(
            replace(
                plain,
                args={name: value.via(hop) for name, value in args.items()},
                init={name: value.via(home.span(construction)) for name, value in made.items()},
                sites=((site.scope, site.placed),) if home is module else (),
                instance=record_fields(reader, module, cls, construction, site_frame),
            )
        )
    return frames


def from_init(reader: Evaluates, module: Module, init: ast.AST | None, method: ast.AST, frames: list[Frame], limit: int) -> list[Frame]:
    """The frames of a method `__init__` calls (`self._start_engine(args, kwargs)`) that no call site gave arguments."""
    if init is None or method is init:
        return frames
    return [found for frame in frames for found in _called_from_init(reader, module, frame.cls, init, method, frame, limit)]


def _called_from_init(
    reader: Evaluates, module: Module, cls: ast.ClassDef | None, init: ast.AST, method: ast.AST, frame: Frame, limit: int
) -> list[Frame]:
    """The method's frame with the arguments `__init__` gives it (`self.method(...)` there, read with what
    the object's construction passed); the frame as it was when `__init__` does not call it or a call site gave them."""
    if frame.args is not None:
        return [frame]
    start = Frame(module, init, cls, frame.init, sites=frame.sites, actor_env=frame.actor_env)
    found = _self_calls(reader, module, cls, start, method, frame)
    if (
        not found and cls is not None and isinstance(method, FUNCTIONS)
    ):  # `__init__` -> `self.setup_replica(i, args)` -> `self.setup_worker(args)`
        for middle in _between(module, cls, init, method):
            for called in _self_calls(reader, module, cls, start, middle, replace(start, scope=middle)):
                found += _self_calls(reader, module, cls, replace(called, at=None), method, frame)
    return found[:limit] or [frame]


def _between(module: Module, cls: ast.ClassDef, init: ast.AST, method: ast.FunctionDef | ast.AsyncFunctionDef) -> list[ast.AST]:
    """The class's other methods `__init__` calls that call `method` (by their text first: most classes have none)."""
    called = module.text(init)
    return [
        m
        for m in cls.body
        if isinstance(m, FUNCTIONS) and m is not init and m is not method and f"self.{m.name}(" in called
        if f"self.{method.name}(" in module.text(m)
    ]


def _self_calls(reader: Evaluates, module: Module, cls: ast.ClassDef | None, caller: Frame, method: ast.AST, frame: Frame) -> list[Frame]:
    """`frame` with the arguments of each `self.method(...)` in the caller's function (read in `caller`)."""
    found = []
    for placed in module.statements(caller.scope):
        for node in expressions(placed.statement):
            func = node.func if isinstance(node, ast.Call) else None
            if isinstance(func, ast.Attribute) and func.attr == getattr(method, "name", None) and isinstance(func.value, ast.Name):
                if func.value.id == "self":
                    args = bind(reader, Function(module, method, cls), node, replace(caller, at=placed))  # type: ignore[arg-type]
                    found.append(replace(frame, args={name: value.via(module.span(node)) for name, value in args.items()}))
    return found


def _made_elsewhere(
    reader: Evaluates, module: Module, cls: ast.ClassDef, init: ast.AST | None, plain: Frame, elsewhere: Sites, limit: int
) -> list[Frame]:
    """No call of the method in the tree: where the object is made only in modules near the
    class's (`e = Engine(cfg)` in main.py), the method's frame with what `__init__` was given,
    its keywords judged as written."""
    if any(_makes(reader, module, site, cls) for site in calls(module, (cls.name + "(",))):
        return []  # made in its own module: the engine's contexts read that
    made = list(elsewhere(lambda other, site: _makes(reader, other, site, cls), (cls.name + "(",)))
    frames = []
    for home, site in made[:limit]:
        site_frame = Frame(home, site.scope, site.cls, None, site.placed)
        args = bind(reader, Function(module, init, cls), site.node, site_frame) if isinstance(init, FUNCTIONS) else {}
        fields = record_fields(reader, module, cls, site.node, site_frame)
        frames.append(replace(plain, init={name: value.via(home.span(site.node)) for name, value in args.items()}, instance=fields))
    return frames


def record_fields(reader: Evaluates, module: Module, cls: ast.ClassDef, construction: ast.Call, frame: Frame) -> Kwargs | None:
    """The fields `construction` gives an object of a record class that has no `__init__` of its own
    (a pydantic model, a dataclass: `vLLM(model=..., extra_kwargs={...})`): what `self.x` holds in its methods."""
    made = Class(module, cls)
    if init_of(module, cls) is not None or not is_record(made):
        return None
    record = instance(reader, made, construction, frame).ref
    return record.fields if isinstance(record, Instance) else None


def reads_record_field(module: Module, cls: ast.ClassDef, method: ast.AST) -> bool:
    """Whether a method of a record class without an `__init__` of its own reads one of its fields
    (`**self.extra_kwargs`): the object's construction, wherever it is, decides the engine."""
    if init_of(module, cls) is not None or not is_record(Class(module, cls)):
        return False
    fields = {s.target.id for s in cls.body if isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name)}
    return any(
        isinstance(node, ast.Attribute) and getattr(node.value, "id", None) == "self" and node.attr in fields for node in ast.walk(method)
    )


def _makes(reader: Evaluates, home: Module, site: Call, cls: ast.ClassDef) -> bool:
    func = site.node.func
    if not isinstance(func, ast.Name) or func.id != cls.name:
        return False
    made = reader.evaluate(func, Frame(home, site.scope, site.cls, None, site.placed)).ref
    return isinstance(made, Class) and made.node is cls


def _made_by(reader: Evaluates, home: Module, site: Call, name: str, cls: ast.ClassDef) -> ast.Call | None:
    """The `cls(...)` call that made the receiver of `site` (`Engine(cfg).start()`, or a name
    bound once to it where the call is read)."""
    func = site.node.func
    if not (isinstance(func, ast.Attribute) and func.attr == name):
        return None
    receiver = func.value
    if isinstance(receiver, ast.Name):
        binding = reaching(Frame(home, site.scope, site.cls, None, site.placed), receiver.id)
        receiver = binding.value if binding is not None and binding.kind == "value" and binding.element is None else None
    if not isinstance(receiver, ast.Call) or not isinstance(receiver.func, ast.Name):
        return None
    made = reader.evaluate(receiver.func, Frame(home, site.scope, site.cls, None, site.placed)).ref
    made = made.func.ref if isinstance(made, Partial) else made  # `make()` of `make = partial(Engine, ...)`
    if not isinstance(made, Class):
        return None
    return receiver if made.node is cls or inherits(reader, made, cls, name) else None  # lagent's `ReplayVllmModel(VllmModel)`


def _init_args(reader: Evaluates, init: Function, home: Module, site: Call, construction: ast.Call, site_frame: Frame) -> dict | None:
    """What `init` is given by the construction of the call's receiver: its own class's, or a subclass's (through
    its `super().__init__(...)`)."""
    made = reader.evaluate(construction.func, site_frame).ref
    if isinstance(made, Class) and made.node is not init.cls:
        return given_up(reader, init, made.module, made.node, construction, site_frame)
    return bound_made(reader, init, construction, site_frame)


def plain_method(module: Module, function: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """Whether `function` is a method of a module-level class nobody decorates, not a dunder, and
    not handed around by name (`callback=self.start`): its callers are the tree's calls of it."""
    if function.name.startswith("__"):
        return False
    cls = next((c for c in module.tree.body if isinstance(c, ast.ClassDef) and function in c.body), None)
    if cls is None or cls.decorator_list:
        return False
    return function.name not in _handed_attributes(module)


def _handed_attributes(module: Module) -> set[str]:
    """Attribute names the module reads other than as the function of a call (once per module)."""
    held = module.__dict__.get("_handed_attributes")
    if held is None:
        called = {id(node.func) for node in ast.walk(module.tree) if isinstance(node, ast.Call)}
        held = {node.attr for node in ast.walk(module.tree) if isinstance(node, ast.Attribute) and id(node) not in called}
        module.__dict__["_handed_attributes"] = held
    return held

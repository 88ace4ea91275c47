"""Objects of a class of the tree made through a `functools.partial` of it: `make = partial(Chat,
model_path=..., use_vllm=True)` then `make()`, or a registry of partials (VLMEvalKit's
`supported_VLM = {name: partial(Qwen2VLChat, ...)}`, filled by `update`, then
`supported_VLM[name]()`), in the class's module, in a module near it that writes the partial,
or in a module near that one that imports the names holding it. Each call is a construction of
the class whose `__init__` gets the partial's arguments before the call's own, as `partial`
does (`binding.bind`); what the call adds from outside the tree (`make(**cfg)`) stays open there.
The names are found by how the modules are written; which class a call makes is always what the
reader evaluates where the call is read."""

from __future__ import annotations

import ast
from typing import Any, Iterator

from .binding import bind
from .callsites import Call, calls
from .facts import NOTHING, Val
from .frames import Evaluates, Frame
from .init_objects import init_object
from .module import Module
from .objects import Class, is_record
from .refs import Engine, Function, Partial

_MAX_WRITERS = 4  # modules near the class's that write a partial of it, followed
_MAX_SITES = 6  # calls of partials of one class followed
_PASSES = 4  # names bound from names that hold a partial, followed this many steps


def made_class(ref: object) -> ast.ClassDef | None:
    """The class a callee makes an object of: the class itself, or a `partial` of it."""
    if isinstance(ref, Partial):
        ref = ref.func.ref
    return ref.node if isinstance(ref, Class) else None


def class_partial(reader: Evaluates, func: ast.expr, frame: Frame, cls: ast.ClassDef) -> Partial | None:
    """The partial of `cls` a call's callee is where `frame` reads it (None: the class itself, or another callee)."""
    if not isinstance(func, (ast.Name, ast.Subscript)):
        return None  # `Engine.remote(...)`, `Engine.options(...).remote(...)`: the class itself
    held = reader.evaluate(func, frame).ref
    return held if isinstance(held, Partial) and made_class(held) is cls else None


def bound_made(reader: Evaluates, init: Function, node: ast.Call, frame: Frame) -> dict[str, Val]:
    """What a construction of `init`'s class gives `init`: the call's arguments, after those of the
    partial of the class it calls (`make()` of `make = partial(Cls, ...)`)."""
    held = class_partial(reader, node.func, frame, init.cls) if init.cls is not None else None
    return bind(reader, init, node, frame, partial=held)


def partial_call(reader: Any, held: Partial, node: ast.Call, frame: Frame, hops: tuple = ()) -> Val:
    """A call of a partial: what its function of the tree returns, an object of a class of the tree
    (`__init__` given the partial's arguments, then the call's), or vLLM's engine or params."""
    cls = held.func.ref
    if isinstance(cls, Function):
        return reader.returned(cls, node, frame, (*hops, held.span), partial=held)
    if not isinstance(cls, Class):
        return Val(ref=Engine(node, frame, partial=held))
    made = init_object(reader, cls, node, frame, partial=held) if not is_record(cls) else None
    return Val(ref=made, span=frame.module.span(node)) if made is not None else NOTHING


def partial_constructions(
    reader: Any, module: Module, cls: ast.ClassDef, besides: list[tuple[Module, Call]], elsewhere: bool = False
) -> list[tuple[Module, Call]]:
    """The calls of a partial of `cls` other than `besides`: in its module, or (`elsewhere`) in the
    modules near it that write one and in the modules near those that import the names holding it."""
    found = []
    for writer in _writers(reader, module, cls, elsewhere):
        holders = _holders(writer, _partials_of(writer, cls), set())
        found += [(writer, site) for site in _calls_of(writer, holders) if (writer is module) != elsewhere]
        if not elsewhere or not holders:
            continue
        tree = reader.tree
        for path, text in tree.importers_naming(writer.path, tuple(sorted(holders)))[:_MAX_WRITERS]:
            importer = tree.open_file(path, text)
            if importer is not None and importer is not module:
                seeds = {local for local, qualified in importer.imports.items() if qualified.rsplit(".", 1)[-1] in holders}
                found += [(importer, site) for site in _calls_of(importer, _holders(importer, set(), seeds))]
    found = [(home, site) for home, site in found if all(site.node is not other.node for _, other in besides)]
    return [(home, site) for home, site in found if _may_make(reader, home, site, cls)][:_MAX_SITES]


def _writers(reader: Any, module: Module, cls: ast.ClassDef, elsewhere: bool) -> Iterator[Module]:
    """The class's module and (`elsewhere`) the modules near it that import it and write `partial(`."""
    if "partial(" in module.source.text:
        yield module
    if not elsewhere:
        return
    tree = reader.tree
    for path, text in tree.importers_naming(module.path, (cls.name,))[:_MAX_WRITERS]:
        other = tree.open_file(path, text) if "partial(" in text else None
        if other is not None and other is not module:
            yield other


def _partials_of(module: Module, cls: ast.ClassDef) -> set[int]:
    """The `partial(Cls, ...)` calls the module writes (by the names it gives the class)."""
    return {
        id(site.node)
        for site in calls(module, ("partial(",))
        if site.node.args and _last_name(site.node.func) == "partial" and _last_name(site.node.args[0]) == cls.name
    }


def _holders(module: Module, partials: set[int], names: set[str]) -> set[str]:
    """The names the module binds to a value that holds one of `partials` or of `names` (also
    through `registry.update(series)` and `registry[key] = ...`), `names` included (once per
    module and question: each construction the flow reads asks)."""
    kept = module.__dict__.setdefault("_partial_holders", {})
    key = (frozenset(partials), frozenset(names))
    if key not in kept:
        kept[key] = _bound_from(module, partials, names)
    return kept[key]


def _bound_from(module: Module, partials: set[int], names: set[str]) -> set[str]:
    found = set(names)
    for _ in range(_PASSES):
        before = len(found)
        for node in ast.walk(module.tree):
            for target, value in _bindings(node):
                if target not in found and any(_holds(part, partials, found) for part in ast.walk(value)):
                    found.add(target)
        if len(found) == before:
            break
    return found


def _bindings(node: ast.AST) -> Iterator[tuple[str, ast.AST]]:
    """(name, value) for what a statement binds or writes into a name: `x = v`, `x: T = v`,
    `x[k] = v`, `x.update(v)`, `x.setdefault(k, v)`."""
    if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
        for target in node.targets if isinstance(node, ast.Assign) else [node.target]:
            target = target.value if isinstance(target, ast.Subscript) else target
            if isinstance(target, ast.Name):
                yield target.id, node.value
    elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in ("update", "setdefault"):
        if isinstance(node.func.value, ast.Name):
            yield from ((node.func.value.id, arg) for arg in (*node.args, *(k.value for k in node.keywords)))


def _holds(node: ast.AST, partials: set[int], names: set[str]) -> bool:
    return id(node) in partials or (isinstance(node, ast.Name) and node.id in names)


def _calls_of(module: Module, names: set[str]) -> list[Call]:
    """The calls `name(...)` and `name[key](...)` of the names."""
    if not names:
        return []
    words = tuple(sorted(f"{name}{tail}" for name in names for tail in ("(", "[")))
    return [site for site in calls(module, words) if _called_name(site.node.func) in names]


def _called_name(func: ast.expr) -> str | None:
    func = func.value if isinstance(func, ast.Subscript) else func
    return func.id if isinstance(func, ast.Name) else None


def _may_make(reader: Evaluates, home: Module, site: Call, cls: ast.ClassDef) -> bool:
    """Whether the call may make `cls` where it is written: its callee is a partial of it, or an
    entry of a registry that holds one (the key the caller gives decides where it is read)."""
    frame = Frame(home, site.scope, site.cls, None, site.placed)
    func = site.node.func
    if class_partial(reader, func, frame, cls) is not None:
        return True
    if not isinstance(func, ast.Subscript):
        return False
    registry = reader.evaluate(func.value, frame).kwargs
    return registry is not None and any(isinstance(e.ref, Partial) and made_class(e.ref) is cls for e in registry.entries.values())


def _last_name(node: ast.expr) -> str | None:
    return node.attr if isinstance(node, ast.Attribute) else node.id if isinstance(node, ast.Name) else None

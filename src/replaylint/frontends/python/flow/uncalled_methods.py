"""A method of an engine's class that no call in the tree reaches: read with what `__init__` was
given at each construction of its class (something outside the tree may call it: a server, a
framework the object is handed to), except at a construction whose object the tree keeps to
itself and only calls other methods of (olmo-eval's script calls `backend.generate(...)`, never
the greedy `backend.logprobs(...)`: that request is never sent)."""

from __future__ import annotations

import ast
from dataclasses import replace

from .callsites import Call
from .class_order import init_of
from .config_builders import takes_class
from .engines import MAX_SITES, constructions, site_frames
from .frames import Frame
from .module import FUNCTIONS, Module
from .partial_classes import bound_made, made_class
from .reader import Function, Reader


def construction_frames(reader: Reader, module: Module, cls: ast.ClassDef, plain: Frame, elsewhere_too: bool) -> list[Frame] | None:
    """The frames of a method no call in the tree reaches (an async `rollout` a server calls), one
    for each construction of its class, its `self` attributes holding what `__init__` was given
    there, as they do for the engine `__init__` builds (`elsewhere_too`: also in the modules near
    it, when the method reads what `__init__` stored); None when every construction's object is
    one the tree keeps and only calls other methods of."""
    init = init_of(module, cls)
    frames = []
    found = constructions(reader, module, cls, elsewhere_too)[:MAX_SITES]
    kept = [(home, site) for home, site in found if not calls_others_only(site, module, cls, plain.scope)]
    if found and not kept:
        return None
    for home, site in kept:
        hop, built = home.span(site.node), takes_class(home, site)  # built: `cfg.pop("type")(**cfg)`, each caller's config names its class
        aliased = isinstance(site.node.func, ast.Name) and site.node.func.id != cls.name  # `model_cls(...)` of `model_cls = VLLMModel`
        for site_frame in site_frames(reader, home, site):  # once per turn of a loop it sits in (`for name in NAMES`)
            picked = made_class(reader.evaluate(site.node.func, site_frame).ref)  # `supported_VLM[name]`: this turn's entry's
            if picked is not cls and (built or aliased or (isinstance(site.node.func, ast.Subscript) and picked is not None)):
                continue  # another class, or a name bound on a path not taken there
            given = bound_made(reader, Function(module, init, cls), site.node, site_frame) if init else {}
            frames.append(replace(plain, init={name: value.via(hop) for name, value in given.items()}, made=hop))
    return frames


def calls_others_only(site: Call, module: Module, cls: ast.ClassDef, method: ast.AST) -> bool:
    """Whether the construction is bound to a name (`backend = VLLMBackend(...)`) that its scope
    uses only to call methods the class itself defines, none of them `method`: nothing the tree
    does with the object can reach `method` (a method of the class calling it would be one of its
    call sites, and those are looked for first). Handed on, returned, stored, read as an
    attribute, or made at module level and imported elsewhere: anything may call it."""
    statement = site.placed.statement
    if not (isinstance(statement, ast.Assign) and statement.value is site.node and len(statement.targets) == 1):
        return False
    target = statement.targets[0]
    if not isinstance(target, ast.Name) or method not in cls.body or not isinstance(site.scope, FUNCTIONS):
        return False  # a function nested in a method; a module-level object, which any module of the tree may import
    name = getattr(method, "name", "")
    own = {m.name for m in cls.body if isinstance(m, FUNCTIONS) and m.name != name and not m.name.startswith("_")}
    called: set[int] = set()
    for node in ast.walk(site.scope):
        if isinstance(node, (ast.Global, ast.Nonlocal)) and target.id in node.names:
            return False
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Name):
            if node.func.value.id == target.id and node.func.attr in own:
                called.add(id(node.func.value))
    uses = [n for n in ast.walk(site.scope) if isinstance(n, ast.Name) and n.id == target.id and isinstance(n.ctx, ast.Load)]
    return bool(uses) and all(id(use) in called for use in uses) and f".{name}(" not in module.source.text

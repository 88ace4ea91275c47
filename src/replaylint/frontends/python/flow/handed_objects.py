"""An object of an engine's wrapper class handed to another object or function of the tree, its
request method called there on what holds it (llm-reasoners' DRPO: `VLLMModel(...)` given to
`PromptAlignWorldModel(base_model=...)`, whose `step` calls `self.base_model.generate(prompts=...,
temperature=0)`): the request is read with the arguments of the construction the receiver holds."""

from __future__ import annotations

import ast
from dataclasses import replace

from ....model import Span
from .callsites import Call, calls, self_attribute
from .class_order import init_of
from .engines import MAX_SITES, caller_frame, constructions
from .facts import Val
from .frames import Frame, parameters
from .handed import handed
from .module import FUNCTIONS, Module
from .objects import Instance
from .partial_classes import bound_made
from .reader import Function, Reader
from .uncalled_methods import calls_others_only


def held_construction(
    reader: Reader, frame: Frame, site: Call, receiver: ast.expr, cls: ast.ClassDef, method: ast.AST
) -> tuple[dict[str, Val], Span] | None:
    """What `__init__` was given at the construction of `cls` the receiver holds where `frame`
    reads it (a parameter, a `self` attribute), and that construction's span; None when it holds
    no object of `cls` the reader saw made, or when the call leaves a parameter of the method
    without a value (it raises before it sends: `generate(user_prompt=...)` of another model's API)."""
    if not _fills(site.node, method):
        return None
    own = self_attribute(receiver) is not None
    if not (own or _parameter(receiver, site.scope)):
        return None  # a name the scope binds itself (`engine = get_engine(...)`) is `receiver_made`'s to read
    held = reader.evaluate(receiver, frame)
    if not _holds(held, cls) and own and frame.init and _stored_parameter(frame, receiver.attr):  # type: ignore[union-attr]
        held = next((h for again in _made_again(reader, frame, frame.cls) if _holds(h := reader.evaluate(receiver, again), cls)), held)
    if not _holds(held, cls) or (own and frame.cls is not None and not _reached(reader, frame.module, frame.cls, site.scope)):
        return None
    return _given(reader, held, cls)


def _reached(reader: Reader, module: Module, owner: ast.ClassDef, method: ast.AST) -> bool:
    """Whether something may call `method` on an object of `owner`: through itself when public, else
    through the public methods that call it on `self` (`step` calling `self._generate_output(...)`),
    unless every object the tree makes of the class is one it keeps and only calls other methods of
    (`world_model.is_terminal(state)` alone: the request is never sent)."""
    if not isinstance(method, FUNCTIONS):
        return True
    called = f"self.{method.name}("
    entries = [method] if not method.name.startswith("_") else []
    entries += [m for m in owner.body if isinstance(m, FUNCTIONS) and not m.name.startswith("_") and called in module.text(m)]
    made = constructions(reader, module, owner, elsewhere_too=True)[:MAX_SITES]
    return not made or not entries or any(not calls_others_only(site, module, owner, entry) for _, site in made for entry in entries)


def _fills(node: ast.Call, method: ast.AST) -> bool:
    """Whether the call gives each parameter of the method that has no default (not known when it spreads `*args`, `**kwargs`)."""
    if not isinstance(method, FUNCTIONS) or any(isinstance(a, ast.Starred) for a in node.args) or any(k.arg is None for k in node.keywords):
        return True
    positional = [*method.args.posonlyargs, *method.args.args][1:]  # after `self`
    required = positional[: len(positional) - len(method.args.defaults)]
    named = {k.arg for k in node.keywords}
    missing = [p.arg for p in required[len(node.args) :] if p.arg not in named]
    missing += [p.arg for p, d in zip(method.args.kwonlyargs, method.args.kw_defaults) if d is None and p.arg not in named]
    return not missing


def _stored_parameter(frame: Frame, attr: str) -> bool:
    """Whether `__init__` of the class whose method `frame` reads stores a parameter as `self.<attr>`
    (`self.base_model = base_model`): what its construction was given is what the attribute holds."""
    init = init_of(frame.module, frame.cls) if frame.cls is not None else None
    if init is None:
        return False
    names = {p.arg for p in parameters(init)}
    for node in ast.walk(init):
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Name) and node.value.id in names:
            if any(self_attribute(target) == attr for target in node.targets):
                return True
    return False


def _holds(held: Val, cls: ast.ClassDef) -> bool:
    return isinstance(held.ref, Instance) and held.ref.plain and held.ref.cls.node is cls and held.span is not None


def _made_again(reader: Reader, frame: Frame, owner: ast.ClassDef) -> list[Frame]:
    """The frame with what `__init__` was given at the construction of its object (the one its
    arguments passed through) read again from there, with the callers of the function that makes
    it: a method whose own callers were followed as far as they go reads the construction alone
    (`PromptAlignWorldModel(base_model=base_model)` in `run_prompt_align`, which `main` calls)."""
    passed = {hop for value in (frame.init or {}).values() for hop in value.hops}
    init = init_of(frame.module, owner)
    again = []
    for home, site in constructions(reader, frame.module, owner, elsewhere_too=True)[:MAX_SITES]:
        if init is not None and home.span(site.node) in passed:
            given = bound_made(reader, Function(frame.module, init, owner), site.node, caller_frame(reader, home, site))
            again.append(replace(frame, init=given))
    return again


def _given(reader: Reader, held: Val, cls: ast.ClassDef) -> tuple[dict[str, Val], Span] | None:
    module = held.ref.cls.module
    init = init_of(module, cls)
    for home, site in constructions(reader, module, cls, elsewhere_too=True):
        if home.span(site.node) == held.span:
            given = bound_made(reader, Function(module, init, cls), site.node, caller_frame(reader, home, site)) if init else {}
            return given, held.span
    return None


def handed_sites(reader: Reader, module: Module, cls: ast.ClassDef, words: tuple[str, ...]) -> list[tuple[Module, Call]]:
    """The calls holding `words` in the modules the importers of `cls` hand things to (`world_model.py`
    of `PromptAlignWorldModel(base_model=...)` in `train.py`), and in the importers themselves on what
    they keep (rank_llm's reranker: `self._vllm_handler = VllmHandler(...)` in `__init__`, then
    `self._vllm_handler.generate_output_async(..., top_k=self._top_k)`), outside the class itself."""
    found = []
    for path, text in reader.tree.importers_naming(module.path, (cls.name,))[:MAX_SITES]:
        importer = reader.tree.open_file(path, text)
        senders = [importer, *handed(reader, importer, module, words, MAX_SITES)] if importer is not None else []
        for sender in [s for i, s in enumerate(senders) if all(s is not o for o in senders[:i])]:
            found += [(sender, site) for site in calls(sender, words) if site.cls is not cls and _handed_receiver(site)]
    return found


def _handed_receiver(site: Call) -> bool:
    """Whether the call's receiver is what was handed over (`self.base_model`, a parameter), not a name the
    scope binds itself (`engine = get_engine(...)`: whether that makes the class is `receiver_made`'s to say)."""
    func = site.node.func
    receiver = func.value if isinstance(func, ast.Attribute) else None
    if isinstance(receiver, ast.Attribute):
        return self_attribute(receiver) is not None
    return _parameter(receiver, site.scope)


def _parameter(receiver: ast.expr | None, scope: ast.AST) -> bool:
    """Whether the receiver is a parameter of the function the call is in (an object handed to it)."""
    return isinstance(receiver, ast.Name) and isinstance(scope, FUNCTIONS) and receiver.id in {p.arg for p in parameters(scope)}

"""Requests followed to the engine they reach: `generate`, `chat` and `beam_search` called on a name or `self` attribute that
holds an engine construction (in this function, another method, the module), with the `SamplingParams` they send read
through names, module constants (`GREEDY`), helpers and dicts spread into them (`SamplingParams(**sampling_cfg)`)."""

from __future__ import annotations

import ast
import itertools
from dataclasses import replace
from typing import Callable, Iterable, Iterator

from ....model import Assumption, Launch, Request, Span
from .actor_forwarding import actor_of_engine
from .actor_lists import actors_read, comprehension_over, held_actors, only_actor_with
from .call_arguments import arguments
from .callsites import Call, argument_at, calls, decides_by_parameter, reads_stored_parameter
from .class_order import init_of
from .closure_calls import closure_frames, in_method
from .deferred_calls import deferred_calls
from .engine_selves import held_engine
from .engines import MAX_SITES, caller_frame, elsewhere, site_frames
from .factory_objects import factory_calls, factory_construction
from .facts import Kwargs, Val
from .frames import Frame, class_level, reaching
from .function_frames import function_frames
from .handed import handed
from .handed_objects import handed_sites, held_construction
from .inherited import reads_inherited
from .kept_entries import nested_frames
from .loop_turns import turn_frames
from .members import self_attribute
from .memoized import filled_entry
from .module import FUNCTIONS, Module, describe
from .object_calls import called_elsewhere, object_names
from .objects import Class, Instance, instance, is_record
from .parameter_requests import made_from_parameters
from .partial_classes import bound_made
from .placeholder_params import placeholder_params
from .processor_requests import processor_requests
from .reader import Engine, Function, Reader, bind
from .receivers import bound_call, bound_node, names_definition, of_class, receiver_made
from .root_callers import root_sites
from .subclass_inits import by_subclass, given_up, of_subclass
from .uncalled_methods import construction_frames

# The request methods and where their params go; `add_request(request_id, prompt, params)` is the
# inner engine's (`llm.llm_engine`, `LLMEngine.from_engine_args(...)`, `AsyncLLM`'s).
_METHODS = {"generate": ("sampling_params", 1), "chat": ("sampling_params", 1), "beam_search": ("params", 1), "add_request": ("params", 2)}
_WORDS = tuple(f".{method}(" for method in _METHODS)
_ACTOR_WORDS = tuple(f".{method}.remote(" for method in _METHODS)
_MAX_OWN_HOPS = 3  # `self.m(...)` calls between methods of one class followed up to their callers


def requests(reader: Reader, module: Module) -> Iterator[tuple[ast.Call, Request, tuple[Assumption, ...], Span | None]]:
    """(engine call, request, the defaults it rests on, the construction of the object that owns the engine when the
    request names one) for each request whose receiver is an engine construction."""
    for call in [*calls(module, _WORDS), *deferred_calls(module, _METHODS)]:  # also `partial(llm.generate, prompts, params)`
        func = call.node.func
        if not isinstance(func, ast.Attribute) or func.attr not in _METHODS:
            continue
        for sent_from, engine, receiver, condition in _engines(reader, module, call):
            # `judge = make("j")`, then `judge.generate(...)`: the engine that call made
            frame = sent_from if sent_from.made is not None else replace(sent_from, made=bound_call(module, sent_from, receiver))
            keyword, position = _METHODS[func.attr]
            params = argument_at(call.node, keyword, position)
            kind = "beam_search" if func.attr == "beam_search" else "sampling"
            if params is None:
                if kind == "beam_search":
                    yield engine.call, Request(kind, module.span(call.node), {}, open_ended=True), (), frame.made
                elif func.attr != "add_request" and _own_defaults(reader, engine):  # vLLM's `SamplingParams()`
                    yield engine.call, Request(kind, module.span(call.node), {}), (), frame.made
                continue
            for made in (m for turn in turn_frames(reader, [frame]) for m in _made(_params_sent(reader, params, receiver, turn))):
                request, assumptions = _request(reader, made, kind)
                chosen = (Assumption(condition, request.span),) if condition else ()  # `policy if use_policy else judge`
                yield engine.call, request, (*assumptions, *chosen), frame.made


def _engines(reader: Reader, module: Module, call: Call) -> Iterator[tuple[Frame, Engine, ast.expr, str]]:
    """The engines a request's receiver holds in each frame it is read in, with the expression
    that holds each and the condition it holds it on: the receiver, each engine of a choice
    whose test is not known here (`policy if use_policy else judge`: the policy's "when
    `use_policy` is true"), or each item of the literal list a loop takes it from
    (`for engine in [policy, ref]: engine.generate(...)`)."""
    receiver = call.node.func.value  # type: ignore[attr-defined]
    for frame in request_frames(reader, module, call):
        engine = reader.evaluate(receiver, frame).ref
        if not isinstance(engine, Engine) and isinstance(receiver, ast.Attribute) and _of_self(receiver, frame):
            engine = self_attribute(reader, receiver.attr, frame, set_later=True).ref  # None has no `generate`
        engine = engine if isinstance(engine, Engine) else held_engine(reader, receiver, frame)  # `_VLLMBackend.llm`, `self`
        if isinstance(engine, Engine):
            yield frame, engine, receiver, ""
            continue
        yield from ((frame, *chosen) for chosen in _either(reader, receiver, frame))
        binding = reaching(frame, receiver.id) if isinstance(receiver, ast.Name) else None
        if binding is None or binding.kind != "each" or binding.element is not None or not isinstance(binding.value, (ast.List, ast.Tuple)):
            continue
        loop = frame.reading(binding.placed)
        for item in binding.value.elts:
            if isinstance(each := reader.evaluate(item, loop).ref, Engine):
                yield frame, each, item, ""


def _of_self(receiver: ast.Attribute, frame: Frame) -> bool:
    return isinstance(receiver.value, ast.Name) and receiver.value.id == "self" and frame.cls is not None


def _own_defaults(reader: Reader, engine: Engine) -> bool:
    """Whether a request without params gets vLLM's own `SamplingParams()`: the engine is built
    with `generation_config="vllm"` (its default, "auto", takes them from the model's
    `generation_config.json`, which is not in the tree)."""
    found = arguments(reader, engine.call, engine.frame, engine.partial)
    chosen = found.entries.get("generation_config")
    return chosen is not None and not chosen.guards and chosen.setting.value == "vllm"


def _either(reader: Reader, receiver: ast.expr, frame: Frame) -> Iterator[tuple[Engine, ast.expr, str]]:
    """The engines of `a if test else b` (written as the receiver, or bound once to its name)
    whose test the reader cannot decide, each with the condition it is chosen on."""
    binding = reaching(frame, receiver.id) if isinstance(receiver, ast.Name) else None
    chosen, at = receiver, frame
    if binding is not None and binding.kind == "value" and binding.element is None and binding.placed is not None:
        scoped = frame if frame.module.in_scope(binding.placed, frame.scope) else replace(frame, scope=frame.module.tree)
        chosen, at = binding.value, scoped.reading(binding.placed)
    if not isinstance(chosen, ast.IfExp):
        return
    test = frame.module.text(chosen.test)
    for branch, holds in ((chosen.body, True), (chosen.orelse, False)):
        if isinstance(engine := reader.evaluate(branch, at).ref, Engine):
            yield engine, branch, describe(test, holds)


def reaching_engines(reader: Reader, module: Module, found: Iterable[tuple[ast.Call, Launch, Kwargs]]) -> Iterator[tuple[Launch, Kwargs]]:
    """Each engine launch with the requests of the module that reach its construction, and the
    defaults those rest on among its assumptions."""
    found = list(found)
    if not any(launch.open_ended or launch.value("return_sampling_mask") not in (None, False) for _, launch, _ in found):
        yield from ((launch, kwargs) for _, launch, kwargs in found)  # no replay engine here: what requests send cannot matter
        return
    sent: dict[int, list[tuple[Request, tuple[Assumption, ...], Span | None]]] = {}
    names = _replay_owners(module, found)
    # an engine built under `if __name__ == "__main__":` has no owner name, but may be handed on (`Generator(llm, params)`)
    masked = names or any(launch.value("return_sampling_mask") is True for _, launch, _ in found)
    around = _requests_elsewhere(reader, module, names) if masked else iter(())
    for engine, request, assumptions, made in itertools.chain(requests(reader, module), processor_requests(reader, module), around):
        sent.setdefault(id(engine), []).append((request, assumptions, made))
    by_object: dict[Span | None, list[tuple[Request, tuple[Assumption, ...]]]] = {}  # an engine actor's, by its construction
    actors_around = _importers_requests(reader, module, names, _ACTOR_WORDS, _actor_requests) if names else iter(())
    for engine, request, assumptions, made in itertools.chain(_actor_requests(reader, module), actors_around):
        sent.setdefault(id(engine), []).append((request, assumptions, None))  # `ray.remote(LLM).remote(...)` is the engine's call
        by_object.setdefault(made, []).append((request, assumptions))
    objects: dict[int, set[Span | None]] = {}  # the constructions each engine call is built for
    for node, launch, _ in found:
        objects.setdefault(id(node), set()).add(getattr(launch.handle, "made", None))
    for node, launch, kwargs in found:
        own = getattr(launch.handle, "made", None)
        # A request sent to one object of a class reaches the engine that object built (the
        # reference actor's greedy request is not the policy's); one whose object is not known does every.
        reaching = [(r, a) for r, a, made in sent.get(id(node), []) if made is None or made == own or made not in objects[id(node)]]
        reaching += by_object.get(own, []) if own is not None else []  # a subclass's `super().__init__` made by that actor
        assumed = [*launch.assumptions, *(a for _, more in reaching for a in more)]
        yield replace(launch, requests=tuple(r for r, _ in reaching), assumptions=tuple(dict.fromkeys(assumed))), kwargs


def _replay_owners(module: Module, found: list[tuple[ast.Call, Launch, Kwargs]]) -> set[str]:
    """The module-level names (functions, classes, variables) whose code builds an engine with
    the mask on: another module reaches that engine only through one of them."""
    masked = [(node, launch) for node, launch, _ in found if launch.value("return_sampling_mask") is True]
    lines = [node.lineno for node, _ in masked]
    # the actor's construction (`LLMActor.options(...).remote(...)` in `create_vllm_engines`)
    lines += [made.start_line for _, launch in masked if (made := getattr(launch.handle, "made", None)) and made.path == module.path]
    names = set()
    for statement in module.tree.body:
        if not any(statement.lineno <= line <= (statement.end_lineno or statement.lineno) for line in lines):
            continue
        if isinstance(statement, (*FUNCTIONS, ast.ClassDef)):
            names.add(statement.name)
        elif isinstance(statement, (ast.Assign, ast.AnnAssign)):
            targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
            names |= {target.id for target in targets if isinstance(target, ast.Name)}
    if names:  # a cache's getter hands back what its key makes (data-juicer's `get_model(model_key)`)
        names |= {s.name for s in module.tree.body if isinstance(s, FUNCTIONS) and filled_entry(s, module.tree) is not None}
    return names


def _requests_elsewhere(
    reader: Reader, module: Module, names: set[str]
) -> Iterator[tuple[ast.Call, Request, tuple[Assumption, ...], Span | None]]:
    """The requests of the modules near this one that import it and name one of `names`, sent to
    an engine it builds (`llm = load_policy(path)`, then `llm.generate(prompts, GREEDY)` in `run_eval.py`)."""
    for sender in handed(reader, module, module, _WORDS, MAX_SITES):  # `rollout(llm, prompts)` of `rollout.py`, the engine made here
        yield from requests(reader, sender)
    yield from _importers_requests(reader, module, names, _WORDS, requests)


def _importers_requests(
    reader: Reader, module: Module, names: set[str], words: tuple[str, ...], read: Callable[[Reader, Module], Iterator]
) -> Iterator:
    """What `read` finds in the modules near this one that import it and name one of `names` (those
    whose text holds one of `words`), and in the modules of the tree they hand things to, read with
    the calls of their functions there (`request_frames`): `RayPPOTrainer(cfg, create_vllm_engines(...))`."""
    for path, text in reader.tree.importers_naming(module.path, tuple(sorted(names))):
        other = reader.tree.open_file(path, text)
        if other is None:
            continue
        if any(word in text for word in words):
            yield from read(reader, other)
        for sender in handed(reader, other, module, words, MAX_SITES):
            yield from read(reader, sender)


def request_frames(reader: Reader, module: Module, call: Call, depth: int = 0) -> list[Frame]:
    """Where a request of a method is read: with the arguments of each call of the method in the module (`self.gen(p, **kw)`,
    `generator.gen(...)` on an object of its class made there), else the method alone; nested in a method, in the method's."""
    plain = Frame(module, call.scope, call.cls, None, call.placed)
    method = call.scope
    if call.cls is None and isinstance(method, FUNCTIONS):  # a module-level function's, or a closure's a factory returns
        return (function_frames if method in module.tree.body else closure_frames)(reader, module, method, plain)
    if call.cls is not None and depth < _MAX_OWN_HOPS and module.enclosing(method) is not None:  # a function nested in a method
        nested = nested_frames(reader, module, call, lambda site: request_frames(reader, module, site, depth + 1))
        nested = nested or in_method(module, call, lambda at: request_frames(reader, module, at, depth + 1))
        if nested is not None:
            return nested
    called = isinstance(method, FUNCTIONS) and method.name == "__call__"  # `judge = Judge(llm)`, then `judge(prompts)`
    if call.cls is None or not isinstance(method, FUNCTIONS) or (method.name.startswith("__") and not called):
        return [plain]
    found = []
    sites = [(module, site) for site in calls(module, object_names(module, call.cls))] if called else []
    if called and not sites and reader.tree.sites_elsewhere:  # `engine = get_engine("vllm-...")`, then `engine(prompt)`
        sites = list(factory_calls(reader, module, call.cls, "__call__")) or list(called_elsewhere(reader, module, call.cls))
    # what the object's construction was given reaches the request (`self.config`, stored by `__init__`)
    init = init_of(module, call.cls)
    stored = reads_stored_parameter(call.cls, init, method, later=True) or reads_inherited(module, call.cls, init, method)
    chooses = stored or decides_by_parameter(method) or made_from_parameters(method, _sent(call, depth))
    for home, site in sites or _method_sites(reader, module, method.name, call.cls, chooses):
        func = site.node.func
        remote = isinstance(func, ast.Attribute) and func.attr == "remote" and isinstance(func.value, ast.Attribute)
        if remote:  # `actor.generate.remote(prompts, params)`: the Ray actor's method
            func = func.value  # type: ignore[union-attr]
        receiver = func.value if isinstance(func, ast.Attribute) and func.attr == method.name else func if called else None
        if receiver is None:
            continue
        turns = site_frames(reader, home, site)  # `for cfg in CFGS: m = Engine(**cfg)`; the caller's arguments (`main(args)`)
        for site_frame in turns:
            on_class = class_level(method) and names_definition(reader, site_frame, receiver, call.cls)  # `HANDLERS[kind].generate(...)`
            held = None  # `self.base_model.generate(...)` of an object given one made elsewhere: that construction's
            if (
                on_class
                or of_class(reader, site_frame, receiver, call.cls)
                or of_subclass(reader, site_frame, receiver, call.cls, method.name)
                or (remote and home is module and only_actor_with(module, call.cls, method.name))
                or (held := held_construction(reader, site_frame, site, receiver, call.cls, method)) is not None
            ):
                for caller in _own_method_frames(reader, module, site, receiver, call.cls, depth) or [site_frame]:
                    bound = bind(reader, Function(module, method, call.cls), site.node, caller)
                    args = {name: value.via(home.span(site.node)) for name, value in bound.items()}
                    init, fields = _constructed(reader, caller, receiver, Class(module, call.cls))
                    init, fields = init if init is not None else caller.init, fields if fields is not None else caller.instance
                    init, made = held or (init, (None if on_class else _object_made(reader, home, site, receiver)) or caller.made)
                    found.append(replace(plain, args=args, init=init, instance=fields, made=made))
    if not found:  # also a `__call__` nothing in the tree calls (a Ray Serve deployment's, the server's)
        found = construction_frames(reader, module, call.cls, plain, stored)
        if found is None:  # every object the tree makes of the class is only asked for its other methods
            return []
    return found[:MAX_SITES] or [plain]


def _sent(call: Call, depth: int) -> ast.expr | None:
    """What a request sends as its params, or the whole call of a method on its way there (`self.predict_batch([x])`)."""
    func = call.node.func
    if depth:
        return call.node
    return argument_at(call.node, *_METHODS[func.attr]) if isinstance(func, ast.Attribute) and func.attr in _METHODS else None


def _own_method_frames(reader: Reader, module: Module, site: Call, receiver: ast.expr, cls: ast.ClassDef, depth: int) -> list[Frame]:
    """`self.generate(prompts, **kwargs)` in another method (langchain's `invoke`): read with that
    method's own callers (`llm.invoke(prompt, top_k=40)`), else each construction's arguments."""
    own = isinstance(receiver, ast.Name) and receiver.id == "self" and site.cls is cls and isinstance(site.scope, FUNCTIONS)
    return request_frames(reader, module, site, depth + 1) if own and depth < _MAX_OWN_HOPS else []


def _object_made(reader: Reader, home: Module, site: Call, receiver: ast.expr) -> Span | None:
    """The span of the construction the receiver of a method call holds (`Engine.remote(...)`,
    bound to a name, or an entry of a dict or list of actors read through the caller), if known."""
    if isinstance(receiver, ast.Subscript):
        return reader.evaluate(receiver, caller_frame(reader, home, site)).span
    return bound_call(home, Frame(home, site.scope, site.cls, None, site.placed), receiver)


def _actor_requests(reader: Reader, module: Module) -> Iterator[tuple[ast.Call, Request, tuple[Assumption, ...], Span | None]]:
    """`ray.get(llm.generate.remote(prompts, params))` on an actor of vLLM's engine (`ray.remote(LLM)`,
    or of a subclass that keeps the engine's method): the request reaches the engine that actor's
    construction built (its call, or the subclass's `super().__init__` made there)."""
    for call in calls(module, _ACTOR_WORDS):
        func = call.node.func
        method = func.value if isinstance(func, ast.Attribute) and func.attr == "remote" else None
        if not (isinstance(method, ast.Attribute) and method.attr in _METHODS):
            continue
        frame = Frame(module, call.scope, call.cls, None, call.placed)
        made = bound_node(frame, method.value)
        # else an item of a list of actors handed in (`for engine in self.vllm_engines`), read where the list is made
        held = [(frame, made, frame)] if made is not None else _held_actors(reader, module, call, method.value)
        keyword, position = _METHODS[method.attr]
        params = argument_at(call.node, keyword, position)
        for sent_from, made, made_in in held:
            if params is None or not actor_of_engine(reader, made_in, made, method.attr):
                continue
            for built in _made(reader.evaluate(params, sent_from)):
                kind = "beam_search" if method.attr == "beam_search" else "sampling"
                yield (made, *_request(reader, built, kind), made_in.module.span(made))


def _held_actors(reader: Reader, module: Module, call: Call, receiver: ast.expr) -> list[tuple[Frame, ast.Call, Frame]]:
    """(the frame a request is read in, the actor's construction, the frame it is made in) for each
    actor the receiver holds in each frame the request is read in."""
    over = comprehension_over(call, receiver)  # `[engine.generate.remote(...) for engine in self.vllm_engines]`
    read = (lambda frame: reader.evaluate(over, frame)) if over is not None else (lambda frame: actors_read(reader, receiver, frame))
    return [(frame, actor.call, actor.frame) for frame in request_frames(reader, module, call) for actor in held_actors(read(frame))]


def _method_sites(reader: Reader, module: Module, name: str, cls: ast.ClassDef, chooses: bool = False) -> list[tuple[Module, Call]]:
    """The calls of a method in its module, else (when the tree is read for another module's names, or a parameter of
    the method `chooses` what it sends: `validate=True`) in the modules near it that import it (`llm.generate(...)` in
    `app/main.py`), then on objects handed on (`self.base_model.generate(...)`) or at a far package's root (`root_sites`)."""
    words = (f".{name}(", f".{name}.remote(")
    here = [(module, site) for site in calls(module, words)]
    if module is not reader.tree.module:  # a module read for the checked one's engine, handed to its class (`Generator(llm, params)`)
        checked = reader.tree.module
        here += [(checked, site) for site in calls(checked, words) if receiver_made(reader, checked, site, cls)]
    if not (reader.tree.sites_elsewhere or chooses):
        return here
    here += factory_calls(reader, module, cls, name)  # `engine = get_engine("vllm-...")`, then `engine.generate(prompt)`
    if any(receiver_made(reader, home, site, cls) for home, site in here):
        return here
    found = elsewhere(reader, module, cls, words)
    kept = [(other, site) for other, site in found if receiver_made(reader, other, site, cls) or by_subclass(reader, other, site, cls)]
    return here + (kept or (handed_sites(reader, module, cls, words) or root_sites(reader, module, cls, words) if chooses else []))


def _constructed(reader: Reader, frame: Frame, receiver: ast.expr, cls: Class) -> tuple[dict[str, Val] | None, Kwargs | None]:
    """The arguments the receiver's `__init__` was given and, for a record (a pydantic model, a
    dataclass), its fields, where the receiver is made here (`Rollout(CONFIG).generate(...)`,
    `rollout = Rollout(CONFIG)`): its `self` attributes then hold them."""
    binding = reaching(frame, receiver.id) if isinstance(receiver, ast.Name) and receiver.id != "self" else None
    made = receiver if isinstance(receiver, ast.Call) else binding.value if binding is not None and binding.kind == "value" else None
    if not isinstance(made, ast.Call):
        return None, None
    sub = reader.evaluate(made.func, frame).ref
    element = binding.element if binding is not None else None  # `llm, mgr = make(...)`: an item only a factory's call gives
    if isinstance(sub, Function) or element is not None:  # a factory's call (`make('m')`): `__init__` is given what it returns
        found = factory_construction(reader, frame, made, cls.node, element)
        if found is None:
            return None, None
        made, frame = found
        sub = reader.evaluate(made.func, frame).ref
    if isinstance(sub, Class) and sub.node is not cls.node and init_of(cls.module, cls.node) is not None:  # a subclass's object
        given = given_up(reader, Function(cls.module, init_of(cls.module, cls.node), cls.node), sub.module, sub.node, made, frame)
        return given, None
    record = instance(reader, cls, made, frame).ref if is_record(cls) else None
    fields = record.fields if isinstance(record, Instance) else None
    init = next((m for m in cls.node.body if isinstance(m, FUNCTIONS) and m.name == "__init__"), None)
    return (bound_made(reader, Function(cls.module, init, cls.node), made, frame) if init is not None else None), fields


def _params_sent(reader: Reader, params: ast.expr, receiver: ast.expr, frame: Frame) -> Val:
    """The params a request sends; `self.sampling_params`, None until the engine's method sets it, as that method does."""
    read = reader.evaluate(params, frame)
    if read.ref is None and isinstance(params, ast.Attribute) and isinstance(receiver, ast.Attribute):
        return placeholder_params(reader, params, receiver, frame) or read
    return read


def _made(read: Val) -> Iterator[Engine]:
    """The params constructions a value holds (one, or each of a list)."""
    if isinstance(read.ref, Engine):
        yield read.ref
    elif isinstance(read.ref, tuple):
        yield from (made for item in read.ref for made in _made(item))


def _request(reader: Reader, made: Engine, kind: str) -> tuple[Request, tuple[Assumption, ...]]:
    found = arguments(reader, made.call, made.frame, made.partial, positional=False)
    if made.attributes is not None:
        found.merge(made.attributes)
    settings = {name: entry.setting for name, entry in found.entries.items() if not entry.guards}
    open_ended = bool(found.reasons) or any(entry.guards for entry in found.entries.values()) or bool(made.call.args)
    span = made.frame.module.span(made.call)
    assumptions = tuple(Assumption(condition, at) for entry in found.entries.values() for condition, at in entry.assumptions)
    # what its keys are complete on (a branch a default decides), for a finding on an absent key, which
    # the request's call is the place of: the call's first character, not the keywords inside it
    start = replace(span, end_line=span.start_line, end_col=span.start_col, end=span.start)
    return Request(kind, span, settings, open_ended), (*assumptions, *(Assumption(condition, start) for condition in found.assumed))

"""Engine constructions of a module and the arguments that reach each: `LLM(...)`, `EngineArgs(...)`, `AsyncEngineArgs(...)` and a
`functools.partial` of one, read in every context the tree gives them: each call site of the function that makes the engine (a class's
`__init__`: each `Engine(...)`, `Engine.remote(...)`, `Engine.options(...).remote(...)`, `make()` of `make = partial(Engine, ...)`),
else the function alone (its parameters unknown, `**kwargs` open). Keys written under branches give one launch per outcome, each
saying its condition."""

from __future__ import annotations

import ast
import itertools
from dataclasses import replace
from typing import Iterator

from ....model import UNKNOWN, Assumption, Launch, LaunchKind, Setting
from .anonymous import frames as anonymous_frames, made_of, scoped_calls
from .attribute_writes import written_after
from .branch_conditions import never_runs, untaken
from .call_arguments import arguments
from .callsites import (
    Call,
    calls,
    closure_sites,
    decides_by_parameter,
    handed_sites,
    hands_parameter,
    led_by,
    reaches_from_callers,
    reads_parameter,
    reads_stored_in_init,
    reads_stored_parameter,
    takes_a_config_of_the_tree,
)
from .class_factories import MADE_BY, constructor, factory_sites, made_with_arguments
from .class_order import init_of
from .config_builders import builder_sites, takes_class
from .decorators import bind_called
from .dicts import call as dict_call
from .dispatchers import dispatched_calls
from .engine_configs import configured
from .engine_names import actor_class, called_partial, candidate_names, class_aliases, registries
from .engine_subclasses import engine_class, engine_subclass_names
from .environ import runner_writes
from .factories import factory_constructions
from .facts import Entry, Kwargs
from .frames import Frame, class_level, parameters
from .function_aliases import named_sites
from .held_partials import held_partial_calls
from .loop_turns import turn_frames
from .mapped_calls import mapped_sites
from .members import before_validator, constant_subclasses
from .method_calls import from_init, method_frames, reads_record_field, record_fields
from .module import FUNCTIONS, Module, describe
from .nested_classes import enclosing_frames
from .objects import as_kwargs
from .partial_classes import bound_made, made_class, partial_constructions
from .placing import FlowHandle
from .ray_runtime_env import actor_env_vars
from .ray_tasks import as_task_call, calls_function, task_sites
from .reader import Function, Partial, Qualified, Reader, bind, engine_name
from .receivers import in_registry
from .refs import ENGINE_CONFIGS
from .subclass_inits import through_subclasses
from .subcommands import handler_args
from .tabled_calls import tabled_calls

MAX_SITES = 6  # call sites followed per function
_OUTER, _MAX_TESTS = 2, 3  # callers of the function that holds a call site followed outwards; branch conditions a launch is split on


def engine_launches(reader: Reader, module: Module, imported: set[str] = frozenset()) -> Iterator[tuple[ast.Call, Launch, Kwargs]]:
    """The launches of the module's engine constructions (`imported`: names of other modules that may hold a `partial` of one)."""
    found = registries(module)
    candidates = candidate_names(module) | imported | found | engine_subclass_names(reader, module)
    subclassing = "super().__init__(" in module.source.text
    actors = (".remote(",) if "ray" in module.imports else ()
    words = tuple(sorted(name + "(" for name in candidates)) + tuple(sorted(name + "[" for name in found))
    words += (".from_cli_args(",) if ".from_cli_args(" in module.source.text else ()
    for call in scoped_calls(module, words + (("__init__(",) if subclassing else ()) + actors):
        func = call.node.func
        last = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else called_partial(func)
        if isinstance(func, ast.Subscript) and isinstance(func.value, ast.Name) and func.value.id in found:
            last = func.value.id  # `ENGINES[kind](...)`: the partial the key picks
        if last == "remote" and (made := actor_class(func)) is not None:  # `ray.remote(LLM).remote(...)`: an actor of vLLM's engine
            for frame in turn_frames(reader, contexts(reader, module, call)):
                if isinstance(actor := reader.evaluate(made, frame).ref, Qualified) and engine_name(actor.name):
                    yield from _launches(reader, call.node, frame, None)
            continue
        if last == "from_cli_args" and isinstance(func, ast.Attribute) and len(call.node.args) == 1 and not call.node.keywords:
            for frame in turn_frames(reader, contexts(reader, module, call)):
                yield from _from_command_line(reader, call.node, func.value, frame)
            continue
        if last == "__init__" and _inits_engine(reader, module, call):
            for frame in turn_frames(reader, contexts(reader, module, call)):
                yield from _launches(reader, call.node, frame, None)
            continue
        if last not in candidates or (last == "partial" and not isinstance(func, ast.Call)):  # `partial(...)` itself makes no engine
            continue
        for frame in turn_frames(reader, contexts(reader, module, call)):
            callee = reader.evaluate(func, frame)
            if engine_class(callee.ref):  # `LLM(...)`, or a subclass's that keeps `LLM.__init__`
                yield from _launches(reader, call.node, frame, None)
            elif isinstance(callee.ref, Qualified) and callee.ref.name in ENGINE_CONFIGS:
                yield from _launches(reader, call.node, frame, None, configured(reader, callee.ref.name, call.node, frame))
            elif isinstance(callee.ref, Partial) and isinstance(callee.ref.func.ref, Qualified) and engine_name(callee.ref.func.ref.name):
                yield from _launches(reader, call.node, frame, callee.ref)


def _from_command_line(reader: Reader, node: ast.Call, owner: ast.expr, frame: Frame) -> Iterator[tuple[ast.Call, Launch, Kwargs]]:
    """`EngineArgs.from_cli_args(args)`: the engine's arguments are the namespace's attributes."""
    engine = reader.evaluate(owner, frame).ref
    if not (isinstance(engine, Qualified) and engine_name(engine.name)):
        return
    module = frame.module
    namespace = as_kwargs(reader.evaluate(node.args[0], frame), module.span(node)).kwargs
    given = namespace.copy() if namespace is not None else Kwargs(reasons=[f"the namespace `{module.text(node.args[0])[:40]}`"])
    given.home = None  # written where the namespace's options are, not in the call
    yield from _launches(reader, node, frame, None, given)


def _inits_engine(reader: Reader, module: Module, call: Call) -> bool:
    """`super().__init__(...)` in `__init__` of a subclass of vLLM's engine (`class MyLLM(LLM)`): the subclass's construction."""
    func = call.node.func
    if call.cls is None or getattr(call.scope, "name", None) != "__init__" or not isinstance(func, ast.Attribute):
        return False
    made = func.value
    if not (isinstance(made, ast.Call) and isinstance(made.func, ast.Name) and made.func.id == "super"):
        return False
    top = Frame(module, module.tree)
    return any(isinstance(ref := reader.evaluate(base, top).ref, Qualified) and engine_name(ref.name) for base in call.cls.bases)


def contexts(reader: Reader, module: Module, call: Call, outer: int = _OUTER) -> list[Frame]:
    found = _contexts(reader, module, call, outer)  # a method of a class written in a function: read with its closure
    return enclosing_frames(module, call, found, lambda around: contexts(reader, module, around, outer)) if call.cls else found


def _contexts(reader: Reader, module: Module, call: Call, outer: int) -> list[Frame]:
    scope = call.scope
    if not isinstance(scope, FUNCTIONS):
        return [Frame(module, module.tree, at=call.placed)]
    plain = Frame(module, scope, call.cls, None, call.placed)
    if made_of(module, scope) is not None:  # a lambda's or comprehension's
        return anonymous_frames(reader, module, scope, plain, lambda made: contexts(reader, module, made, outer))
    if call.cls is not None and before_validator(scope):
        return _validator_frames(reader, module, call.cls, scope, plain, outer)
    if call.cls is not None and class_level(scope):
        return _class_method_frames(reader, module, call.cls, scope, plain, outer)
    if call.cls is not None:
        # its callers' arguments reach the engine (`def create(self, cfg): return Model(cfg.engine_args)`)
        forwards = scope.args.kwarg is not None or decides_by_parameter(scope) or reads_parameter(scope, call.node)
        sites_of = lambda matches, words: _sites_elsewhere(reader, module, call.cls, matches, words) if forwards else ()  # noqa: E731
        called = method_frames(reader, module, call.cls, scope, plain, sites_of, MAX_SITES)
        init = init_of(module, call.cls)
        if called:  # `e = Engine(cfg)`, then `e.start(...)`: each call's arguments (or `__init__`'s, made elsewhere)
            return from_init(reader, module, init, scope, called, MAX_SITES)
        frames = []
        elsewhere_too = reads_stored_parameter(call.cls, init, scope) or hands_parameter(init, scope)  # the caller's `config`
        # `__init__(self, **kwargs)` forwards them; `LLM(tensor_parallel_size=args.tp)` in `__init__(self, args)` reads the caller's
        elsewhere_too = elsewhere_too or (scope is init and (scope.args.kwarg is not None or reads_parameter(scope, call.node)))
        elsewhere_too = elsewhere_too or (scope is init and reads_stored_in_init(call.cls, init, call.node))  # `LLM(self.model_path)`
        elsewhere_too = elsewhere_too or reads_record_field(module, call.cls, scope)  # `**self.extra_kwargs` of a pydantic model
        sites = constructions(reader, module, call.cls, elsewhere_too)[:MAX_SITES]
        for home, site, site_frame in ((h, s, f) for h, s in sites for f in site_frames(reader, h, s, outer)):
            if not _picks(reader, site, site_frame, call.cls):
                continue
            args = bound_made(reader, Function(module, init, call.cls), site.node, site_frame) if init is not None else {}
            hop = home.span(site.node)
            args = {name: value.via(hop) for name, value in args.items()}
            sites_here = ((site.scope, site.placed),) if home is module else ()
            actor_env = tuple(actor_env_vars(module, call.cls, home, site))
            fields = record_fields(reader, module, call.cls, site.node, site_frame)
            made = dict(sites=sites_here, actor_env=actor_env, made=hop, instance=fields, **led_by(module, home, site, site_frame))
            frames.append(replace(plain, args=args if scope is init else None, init=args, **made))
        if not frames and init is not None:
            made = lambda home, sub: constructions(reader, home, sub, elsewhere_too=True)[:MAX_SITES]  # noqa: E731
            site_of = lambda home, site: _site_frame(reader, home, site, outer)  # noqa: E731
            frames = [
                replace(plain, args=args if scope is init else None, init=args)
                for args in through_subclasses(reader, module, call.cls, init, made, site_of)
            ]
        if not frames and init is not None:  # `VLLM.create_from_arg_obj(args, extra)`: a factory classmethod's `cls(...)`
            site_of = lambda home, site: _site_frame(reader, home, site, outer)  # noqa: E731
            made = factory_constructions(reader, module, call.cls, init, site_of, lambda words: elsewhere(reader, module, call.cls, words))
            frames = [replace(plain, args=a if scope is init else None, init=a, made=h.span(s.node)) for h, s, a in made][:MAX_SITES]
        # an object of a subclass that only changes class constants builds its own engine (read with the subclass's)
        frames = (frames or [plain]) + [replace(plain, cls=sub) for sub in constant_subclasses(module, call.cls, scope)]
        return from_init(reader, module, init, scope, frames, MAX_SITES)
    sites = [(module, site) for site in named_sites(reader, module, scope)]  # `main(...)`; `run = main`, then `run(...)`
    near = lambda factory: elsewhere(reader, module, factory, (factory.name + "(",))  # noqa: E731
    sites += [(home, site) for home, site in closure_sites(module, scope, near) if all(site.node is not other.node for _, other in sites)]
    # `Process(target=main, args=(...))`, `main.remote(...)` of a Ray task, `ds.map(main, fn_kwargs=...)`
    handed = (*handed_sites(module, scope), *task_sites(reader, module, scope), *mapped_sites(reader, module, scope))
    sites += [(module, site) for site in handed]
    called_parameter = (
        isinstance(call.node, ast.Call) and isinstance(call.node.func, ast.Name) and call.node.func.id in {p.arg for p in parameters(scope)}
    )  # `model_key()`
    # `getattr(importlib.import_module(path), name)()`: the class its callers' text names
    taken = called_parameter or (isinstance(call.node, ast.Call) and takes_class(module, call))
    if not sites and (taken or reaches_from_callers(scope, call.node)):  # its callers' arguments reach the engine
        found = _sites_elsewhere(reader, module, scope, lambda other, site: calls_function(reader, other, site, scope))
        sites = [(home, as_task_call(reader, home, site, scope) or site) for home, site in found]
    frames = []
    if not sites:  # `model_key()` of a `partial` of it handed to a parameter
        frames_of = lambda s: contexts(reader, module, s, outer)[:MAX_SITES]  # noqa: E731
        for site, site_frame, held in held_partial_calls(reader, module, scope, frames_of):
            args = bind(reader, Function(module, scope), site.node, site_frame, partial=held)
            frames.append(replace(plain, args=args, sites=((site.scope, site.placed),), made=module.span(site.node)))
    reached = [(h, s, f) for h, s in sites[:MAX_SITES] for f in turn_frames(reader, [_site_frame(reader, h, s, outer)])]
    for home, site, site_frame in (r for r in reached if not never_runs(reader, r[1].placed.guards, r[2])):
        args = bind_called(reader, Function(module, scope), site.node, site_frame)
        hop = home.span(site.node)
        sites_here = ((site.scope, site.placed),) if home is module else ()
        callee = reader.evaluate(site.node.func, site_frame).ref if scope not in module.tree.body else None
        enclosing = callee.outer if isinstance(callee, Function) and callee.node is scope else None  # a closure's enclosing call
        args = {name: value.via(hop) for name, value in args.items()}
        frames.append(replace(plain, args=args, sites=sites_here, outer=enclosing, made=hop, **led_by(module, home, site, site_frame)))
    if not frames and scope in module.tree.body:  # a subcommand's handler: `args.func(args)`
        frames = [replace(plain, args=args) for args in handler_args(reader, module, scope)]
    if not frames and reached:  # every call of it on a branch the tree's own values never take
        reader.not_run.add(module.span(call.node))
    return frames or ([] if reached else [plain])


def _validator_frames(
    reader: Reader, module: Module, cls: ast.ClassDef, method: ast.FunctionDef | ast.AsyncFunctionDef, plain: Frame, outer: int
) -> list[Frame]:
    """A before-validator read with the keywords of each construction of its class: its `values`."""
    params = parameters(method)
    if len(params) < 2:
        return [plain]
    frames = []
    for home, site in constructions(reader, module, cls)[:MAX_SITES]:
        site_frame = _site_frame(reader, home, site, outer)
        keywords = dict_call(reader, site.node, site_frame, positional=False)
        frames.append(replace(plain, args={params[1].arg: keywords.via(home.span(site.node))}))
    return frames or [plain]


def _class_method_frames(
    reader: Reader, module: Module, cls: ast.ClassDef, method: ast.FunctionDef | ast.AsyncFunctionDef, plain: Frame, outer: int
) -> list[Frame]:
    """A classmethod or staticmethod read with the arguments of each call of it on its class (`Engine.from_config(cfg)`), else alone."""
    skip = any(isinstance(d, ast.Name) and d.id == "classmethod" for d in method.decorator_list)
    frames, words = [], (f"{cls.name}.{method.name}(",)
    sites = [(module, site) for site in calls(module, words)] or list(_sites_elsewhere(reader, module, cls, lambda *_: True, words))
    for home, site in sites[:MAX_SITES]:
        func = site.node.func
        if not (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == cls.name):
            continue
        site_frame = _site_frame(reader, home, site, outer)
        args = bind(reader, Function(module, method, cls), site.node, site_frame, skip_self=skip)
        hop = home.span(site.node)
        here = ((site.scope, site.placed),) if home is module else ()
        frames.append(replace(plain, args={name: value.via(hop) for name, value in args.items()}, sites=here))
    return frames or [plain]


def elsewhere(reader: Reader, module: Module, definition: ast.AST, words: tuple[str, ...]) -> Iterator[tuple[Module, Call]]:
    """The calls holding `words` in the modules near `module` that import it and name `definition`."""
    name = getattr(definition, "name", "")
    names = (name, *sorted(class_aliases(module, definition))) if isinstance(definition, ast.ClassDef) else (name,)
    for opened, (path, text) in enumerate(reader.tree.importers_naming(module.path, names), 1):
        if opened > MAX_SITES:  # a class the whole tree makes (vLLM's own `LLM`): its first users only
            break
        made = f"{name}(" in words and isinstance(definition, ast.ClassDef)  # the class's own constructions looked for
        if not made and not any(word in text for word in words):
            continue  # (`calls` finds calls on the lines holding a word: none here, so no parse)
        other = reader.tree.open_file(path, text)
        if other is None:
            continue
        # its names in that module too (`LLMRayActor = ray.remote(LLMActor)` where the actor is made)
        own = sorted(class_aliases(other, definition) - set(names)) if made else []  # type: ignore[arg-type]
        made_by = (*MADE_BY, "[")  # `MODELS[name](...)` of a registry of classes
        yield from ((other, site) for site in calls(other, (*words, *(f"{alias}{tail}" for alias in own for tail in made_by))))
    if isinstance(definition, FUNCTIONS) and f"{name}(" in words:  # `fn = get_fn_completions(name)`, then `fn(...)`; `TABLE[key](...)`
        yield from itertools.chain(dispatched_calls(reader.tree, module, definition), tabled_calls(reader.tree, module, definition))
    elif isinstance(definition, ast.ClassDef) and f"{name}(" in words:  # `Models[key](args)` of a package's `from .model import Models`
        yield from tabled_calls(reader.tree, module, definition, users_only=True)  # (the table's own module: read above)


def _sites_elsewhere(
    reader: Reader, module: Module, definition: ast.AST, matches, words: tuple[str, ...] = ()
) -> Iterator[tuple[Module, Call]]:
    """Calls of a module-level function or class (or `words`: of a method) from the modules near it that import it."""
    if definition not in module.tree.body:
        return
    name = getattr(definition, "name", "")
    aliases = sorted(class_aliases(module, definition)) if isinstance(definition, ast.ClassDef) else []  # and `BACKEND_MAP[...](...)`
    words = words or (*(f"{n}{tail}" for n in (name, *aliases) for tail in MADE_BY), *(f"{alias}[" for alias in aliases))
    yield from ((other, site) for other, site in elsewhere(reader, module, definition, words) if matches(other, site))


def caller_frame(reader: Reader, home: Module, site: Call) -> Frame:
    """Where a call site is read, with the arguments of the one call of its function (`_site_frame`)."""
    return _site_frame(reader, home, site, _OUTER)


def site_frames(reader: Reader, home: Module, site: Call, outer: int = _OUTER) -> list[Frame]:
    """Where a construction is read, once per turn of a loop it sits in; a config builder's
    (`cfg.pop("type")(**cfg)`) with each call of its function, as each picks its own class."""
    if takes_class(home, site) and isinstance(site.scope, FUNCTIONS) and outer:
        return turn_frames(reader, contexts(reader, home, site, outer - 1)[:MAX_SITES])
    return turn_frames(reader, [_site_frame(reader, home, site, outer)])


def _site_frame(reader: Reader, home: Module, site: Call, outer: int) -> Frame:
    """Where a call site is read: with the arguments of the one call of its function in the tree, `outer` levels out."""
    found = caller_frames(reader, home, site, outer)
    return found[0] if len(found) == 1 else Frame(home, site.scope, site.cls, None, site.placed)


def caller_frames(reader: Reader, home: Module, site: Call, outer: int = _OUTER) -> list[Frame]:
    """Where a call site is read, once with the arguments of each call of its function (`collect(llm=llm, ...)` in both
    branches of an `if`), else alone."""
    plain = Frame(home, site.scope, site.cls, None, site.placed)
    found = contexts(reader, home, site, outer - 1) if outer and isinstance(site.scope, FUNCTIONS) else [plain]
    if len(found) > 1 and found[0].outer is not None and all(f.outer == found[0].outer for f in found):
        return [replace(plain, outer=found[0].outer)]  # a closure's calls (a loop's turns): what its factory's call gave it
    return found[:MAX_SITES] or [plain]


def constructions(reader: Reader, module: Module, cls: ast.ClassDef, elsewhere_too: bool = False) -> list[tuple[Module, Call]]:
    """Where the class is made: in its module, else in the modules near that import it (`elsewhere_too`: arguments from there)."""
    names = (cls.name, *sorted(class_aliases(module, cls)))
    made = [(module, site) for site in calls(module, names) if _makes(reader, site, cls, module)]
    made += partial_constructions(reader, module, cls, besides=made)  # `make = partial(Engine, ...)`, then `make()`
    if made or not (elsewhere_too or reader.tree.sites_elsewhere or takes_a_config_of_the_tree(reader, module, cls)):
        return made
    found = list(_sites_elsewhere(reader, module, cls, lambda other, site: _makes(reader, site, cls, other)))
    found += factory_sites(reader, module, cls) if not found else []  # `worker_cls = get_worker_cls(cfg)`, then `worker_cls(cfg)`
    return found + partial_constructions(reader, module, cls, found, True) + builder_sites(reader, module, cls)  # `cfg.pop("type")(**cfg)`


def _makes(reader: Reader, site: Call, cls: ast.ClassDef, module: Module) -> bool:
    """`Engine(...)`, `Engine.remote(...)`, `Engine.options(...).remote(...)`, `ray.remote(Engine).remote(...)`,
    a Ray Serve deployment's `Engine.bind(...)` (`.options(...).bind(...)`), and `MODELS[name](...)`
    of a dict of classes that holds it."""
    func = constructor(site.node.func)
    frame = Frame(module, site.scope, site.cls, None, site.placed)
    if isinstance(func, ast.Subscript):
        return in_registry(reader, func, frame, cls)
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id in module.imports:
        return func.attr == cls.name and getattr(reader.evaluate(func, frame).ref, "node", None) is cls  # `backends.Server(...)`
    if not isinstance(func, (ast.Name, ast.Call)):
        return False
    if isinstance(func, ast.Name) and func.id not in (cls.name, *module.imports) and func.id not in class_aliases(module, cls):
        return False
    made = reader.evaluate(func, frame).ref
    return getattr(made, "node", None) is cls and made_with_arguments(site.node.func, made)  # (RLinf's `Cls.create_group(...)`)


def _picks(reader: Reader, site: Call, frame: Frame, cls: ast.ClassDef) -> bool:
    """Whether a construction read in `frame` may make `cls`: `MODELS[name](...)` whose key is
    known there must pick it (`get_model("hf", ...)` makes another class of the registry)."""
    func = constructor(site.node.func)
    aliased = isinstance(func, ast.Name) and func.id != cls.name and func.id not in frame.module.imports  # `model_cls = VLLMModel`
    if aliased or takes_class(frame.module, site):  # a config's builder: the class the caller's config names
        return made_class(reader.evaluate(func, frame).ref) is cls
    if not isinstance(func, ast.Subscript):
        return True
    made = reader.evaluate(func, frame)
    if made.ref is not None or made.known:
        return made_class(made.ref) is cls
    registry = reader.evaluate(func.value, frame).kwargs  # a key not known here: the registry must hold only `cls`
    return registry is not None and all(made_class(e.ref) is cls for e in registry.entries.values())


def _launches(
    reader: Reader, node: ast.Call, frame: Frame, partial: Partial | None, given: Kwargs | None = None
) -> Iterator[tuple[ast.Call, Launch, Kwargs]]:
    """`given`: the engine's arguments as a library config gives them (`engine_configs`)."""
    module = frame.module
    if frame.at is not None and never_runs(reader, frame.at.guards, frame):
        reader.not_run.add(module.span(node))  # on a branch the tree's own values never take
        return
    found = given if given is not None else arguments(reader, node, frame, partial)
    writes_of, after = written_after(reader, node, frame)
    found.merge(after)
    tests = list(dict.fromkeys(g.test for e in _chain(found) for g in e.guards if not g.opaque))
    # An open launch is not split: what nobody can see may decide the same keys (its keys
    # written under a branch are present, their values unknown).
    limit = 0 if found.reasons else _MAX_TESTS
    split, blurred = tests[:limit], set(tests[limit:])
    label = f"{module.text(node.func)}(...)"
    written = runner_writes(frame, reader)
    env, env_statements = written.env, written.statements
    branches = untaken(reader, frame)  # the construction's own, on a path the defaults do not take
    for truth in itertools.product((True, False), repeat=len(split)):
        outcome = dict(zip(split, truth))
        settings: dict[str, Setting] = {}
        places = {}
        assumptions = [Assumption(condition) for condition in found.assumed]  # rests on the launch's completeness
        assumptions.extend(Assumption(condition, span) for condition, span in written.assumptions)
        for name, entry in found.entries.items():
            chosen = _chosen(entry, outcome, blurred)
            settings[name] = chosen.setting
            if chosen.place is not None:
                places[name] = chosen.place
            assumptions.extend(Assumption(condition, span) for condition, span in chosen.assumptions)
        condition = " and ".join((*branches, *(describe(test, holds) for test, holds in outcome.items())))
        yield (
            node,
            Launch(
                kind=LaunchKind.PYTHON_CALL,
                span=module.span(node),
                settings=settings,
                env=env,
                open_reasons=tuple(found.reasons),
                condition=f"when {condition}" if condition else None,
                label=label,
                handle=FlowHandle(
                    found.home,
                    places,
                    env_statements=env_statements,
                    callers=bool(frame.sites),
                    made=frame.made,
                    env_not_run=written.not_run,
                    writes_read=writes_of,
                ),
                assumptions=tuple(dict.fromkeys(assumptions)),
            ),
            found,
        )


def _chain(found: Kwargs) -> Iterator[Entry]:
    for entry in found.entries.values():
        current: Entry | None = entry
        while current is not None:
            yield current
            current = current.otherwise


def _chosen(entry: Entry, outcome: dict[str, bool], blurred: set[str]) -> Entry:
    """The entry in force on the path `outcome` takes. Where none is, the key may still be there
    (the branch's test is a run-time value): present, its value unknown, so that no finding
    rests on its absence; a finding on the path where it is written says its condition."""
    current: Entry | None = entry
    while current is not None:
        if any(g.test in blurred for g in current.guards):
            break
        if all(g.opaque or outcome.get(g.test) == g.holds for g in current.guards):
            return current
        current = current.otherwise
    return replace(entry, setting=replace(entry.setting, value=UNKNOWN, keys={}, choices=()), place=None, guards=())


# The reader reads a program's runs (`argv_runs`) in each context the tree calls their function in, which is
# this module's reading; given to it here, as importing this module there would close a circle of imports.
Reader.call_contexts = contexts  # type: ignore[attr-defined]

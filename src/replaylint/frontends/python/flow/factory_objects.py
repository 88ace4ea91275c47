"""Objects a module-level function of the tree makes and returns (textgrad's `get_engine(name, **kwargs)`:
`return ChatVLLM(model_string=..., **kwargs)` on the branch a `vllm-` name takes, `return ChatOpenAI(...)` on
another): a call of it holds an object of the class where its arguments decide every return they leave to
be `Cls(...)`, and the calls on a name bound to it (`engine(prompt)`, `engine.generate(prompt)`) are calls of
the class's methods. Such functions are looked for, by the text `return Cls(` (else `: Cls`, a dict of classes it picks
from: DSGym's `backend_class = backend_map[kind]`, `return backend_class(...)`), in the class's module and
the modules near it that import it; their calls in the modules near those that import them."""

from __future__ import annotations

import ast
from typing import Iterable, Iterator

from .binding import bind
from .callsites import Call, calls
from .frames import Evaluates, Frame, binds
from .logic import decided
from .memoized import returned_paths
from .module import FUNCTIONS, Module
from .partial_classes import made_class
from .refs import Function

_MAX_DEPTH = 5  # one less than the reader's MAX_DEPTH (6, calls followed into one another): the factory's own call
_MAX_FACTORIES = 4


def made_by_factory(reader: Evaluates, frame: Frame, value: ast.Call, cls: ast.ClassDef, element: int | None = None) -> bool:
    """Whether `value`, a call of a module-level function of the tree, returns an object of `cls`
    where `frame` reads it: every return its arguments do not decide against is `Cls(...)` (with
    `element`, the item of the tuple it returns that a target unpacks: `llm, mgr = create_engine()`)."""
    return bool(_taken_constructions(reader, frame, value, cls, element))


def factory_construction(
    reader: Evaluates, frame: Frame, value: ast.Call, cls: ast.ClassDef, element: int | None = None
) -> tuple[ast.Call, Frame] | None:
    """The one `Cls(...)` such a call returns, with the frame of the factory that call makes (its
    parameters bound to the call's arguments: `make('m')` of `def make(model, temperature=0.0): return
    VllmDecoder(model, temperature=temperature)`), for reading what the object's `__init__` is given;
    None when the call may return another construction, or none."""
    taken = _taken_constructions(reader, frame, value, cls, element)
    return taken[0] if len(taken) == 1 else None


def _taken_constructions(
    reader: Evaluates, frame: Frame, value: ast.Call, cls: ast.ClassDef, element: int | None = None
) -> list[tuple[ast.Call, Frame]]:
    """The returns of `cls(...)` the call may take, each with the factory's frame there; empty when it
    may take another return, or when it is no call of a module-level factory of the tree."""
    if frame.depth >= _MAX_DEPTH or not isinstance(value.func, (ast.Name, ast.Attribute)):
        return []
    function = reader.evaluate(value.func, frame).ref
    if not isinstance(function, Function) or function.cls is not None or not _returns_named(function.node, cls.name, function.module):
        return []
    if id(function.node) in frame.stack:
        return []
    paths = returned_paths(function.module, function.node)
    if not paths:
        return []
    args = bind(reader, function, value, frame)
    inner = Frame(function.module, function.node, None, args, None, frame.depth + 1, (*frame.stack, id(function.node)))
    taken, assumed = [], []  # a branch a run-time default decides (`os.getenv("ENGINE", "vllm-m")`) is not followed
    for placed, guards in paths:
        left = decided(reader, guards, inner.reading(placed), assumed)
        if left is None:
            continue  # the call decides against this return
        taken.append(_given(placed.statement.value, inner.reading(placed), element))
        if not left:
            break  # taken whenever it is reached
    if not taken or assumed or not all(_constructs(reader, at, made, cls) for made, at in taken):
        return []
    return taken


def _given(value: ast.expr | None, frame: Frame, element: int | None) -> tuple[ast.expr | None, Frame]:
    """What a return gives the caller's target: the item `element` of a tuple spelt out (`return llm,
    mgr`), and a name the factory binds once, before the return and on its path, to a call (`mgr =
    Manager(llm=llm)`) read as that call where it is written; (None, frame) for any other shape."""
    if element is not None:
        items = value.elts if isinstance(value, ast.Tuple) else []
        if element >= len(items) or any(isinstance(item, ast.Starred) for item in items):
            return None, frame
        value = items[element]
    if not isinstance(value, ast.Name) or frame.at is None:
        return value, frame
    placed = [p for p in frame.module.binders(frame.scope, value.id) if binds(p.statement, value.id) is not None]
    binding = binds(placed[0].statement, value.id) if len(placed) == 1 else None
    if binding is None or binding.kind != "value" or binding.element is not None or not isinstance(binding.value, ast.Call):
        return None, frame
    at = placed[0]
    if at.order >= frame.at.order or frame.at.guards[: len(at.guards)] != at.guards:
        return None, frame
    return binding.value, frame.reading(at)


def factory_calls(reader, module: Module, cls: ast.ClassDef, method: str) -> Iterator[tuple[Module, Call]]:
    """The calls of `method` (`__call__`: the object called) on a name bound to a call of a factory of
    `cls`, in the factory's module and the modules near it that import it and name the factory."""
    for home, function in _factories(reader, module, cls):
        for user in _holding(reader, home, function.name, f"{function.name}("):
            yield from ((user, site) for site in _calls_on(user, _bound_to(user, function.name), method))


def _holding(reader, module: Module, name: str, word: str) -> Iterator[Module]:
    """`module` and the modules near it that import `name` from it, those whose text holds `word` (the others are not parsed)."""
    for path, text in [(module.path, module.source.text), *reader.tree.importers_naming(module.path, (name,))]:
        if word in text:
            found = module if path == module.path else reader.tree.open_file(path, text)
            if found is not None:
                yield found


def _calls_on(module: Module, names: set[str], method: str) -> list[Call]:
    """`name(...)` (`__call__`) or `name.method(...)` of one of `names`."""
    if not names:
        return []
    spelt = tuple(sorted(f"{name}(" if method == "__call__" else f"{name}.{method}(" for name in names))
    found = []
    for site in calls(module, spelt):
        func = site.node.func
        receiver = func if method == "__call__" else func.value if isinstance(func, ast.Attribute) and func.attr == method else None
        if isinstance(receiver, ast.Name) and receiver.id in names:
            found.append(site)
    return found


def _factories(reader, module: Module, cls: ast.ClassDef) -> list[tuple[Module, ast.FunctionDef | ast.AsyncFunctionDef]]:
    found = []
    # `return Cls(...)`; a dict of classes (`{"vllm": Cls}`) it picks from; a name bound to one (`mgr = Cls(...)`, `return llm, mgr`)
    for word in (f"return {cls.name}(", f": {cls.name}", f" = {cls.name}("):
        for home in _holding(reader, module, cls.name, word):
            found += [(home, s) for s in home.tree.body if isinstance(s, FUNCTIONS) and _returns_named(s, cls.name, home)]
        if found:
            break
    return found[:_MAX_FACTORIES]


def _bound_to(module: Module, function: str) -> set[str]:
    """The names a statement of the module binds to `function(...)` (`engine = get_engine(...)`)."""
    names = set()
    for node in ast.walk(module.tree):
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call) and _named(node.value.func) == function:
            for target in node.targets:  # `engine = get_engine(...)`; `llm, mgr = create_engine(...)`
                names |= {item.id for item in (target.elts if isinstance(target, ast.Tuple) else [target]) if isinstance(item, ast.Name)}
    return names


def _returns_named(function: ast.AST, name: str, module: Module | None = None) -> bool:
    """Whether the function returns `Name(...)`, or a call of a class it picks from a dict literal
    naming the class, its own or the module's (DSGym's `backend_class = backend_map[backend_type]`,
    then `return backend_class(...)`; `return BACKENDS[kind](...)`)."""
    returned = [node.value.func for node in ast.walk(function) if isinstance(node, ast.Return) and isinstance(node.value, ast.Call)]
    returned += _held_returns(function)
    if any(_named(func) == name for func in returned):
        return True
    if not any(isinstance(func, (ast.Name, ast.Subscript)) for func in returned):
        return False
    registries = _registries(module.tree.body if module is not None else [], name)
    registries, picked = _picked_from_registry(function, name, registries)
    return any(
        (isinstance(func, ast.Name) and func.id in picked)
        or (isinstance(func, ast.Subscript) and isinstance(func.value, ast.Name) and func.value.id in registries)
        for func in returned
    )


def _held_returns(function: ast.AST) -> list[ast.expr]:
    """The functions called in the calls a return gives by an item of a tuple (`return llm, Manager(llm)`)
    or by a name the function binds to a call (`mgr = Manager(llm)`, then `return llm, mgr` or `return mgr`)."""
    items = []
    for node in ast.walk(function):
        if isinstance(node, ast.Return) and node.value is not None:
            items += node.value.elts if isinstance(node.value, ast.Tuple) else [node.value]
    held = {item.id for item in items if isinstance(item, ast.Name)}
    found = [item.func for item in items if isinstance(item, ast.Call)]
    if held:
        found += [
            node.value.func
            for node in ast.walk(function)
            if isinstance(node, ast.Assign)
            and isinstance(node.value, ast.Call)
            and any(getattr(t, "id", None) in held for t in node.targets)
        ]
    return found


def _picked_from_registry(function: ast.AST, name: str, registries: set[str]) -> tuple[set[str], set[str]]:
    """The dicts naming the class the function binds (with `registries`, the module's), and the names
    it binds to `registry[key]` of one of them."""
    registries, picked = registries | _registries(ast.walk(function), name), set()
    for node in ast.walk(function):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            value = node.value
            if isinstance(value, ast.Subscript) and isinstance(value.value, ast.Name) and value.value.id in registries:
                picked.add(node.targets[0].id)
    return registries, picked


def _registries(nodes: Iterable[ast.AST], name: str) -> set[str]:
    """The names `nodes` bind to a dict literal one of whose values is the class named `name`."""
    return {
        node.targets[0].id
        for node in nodes
        if isinstance(node, ast.Assign)
        and len(node.targets) == 1
        and isinstance(node.targets[0], ast.Name)
        and isinstance(node.value, ast.Dict)
        and any(isinstance(item, ast.Name) and item.id == name for item in node.value.values)
    }


def _named(func: ast.expr) -> str:
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""


def _constructs(reader: Evaluates, frame: Frame, value: ast.expr | None, cls: ast.ClassDef) -> bool:
    return isinstance(value, ast.Call) and made_class(reader.evaluate(value.func, frame).ref) is cls

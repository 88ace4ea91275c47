"""Ray actor classes a fork registers in a module-level dict and starts by a key a function is
passed (OpenRLHF: `VLLM_ENGINE_CLASSES = {"vllm": ray.remote(RolloutRayActor), "vllm_replay":
ray.remote(ReplayRolloutRayActor)}`, then `VLLM_ENGINE_CLASSES[engine_class].options(...).remote(...)`
in `create_vllm_engines`), and what a subclass's `__init__` writes into its `**kwargs` before it
hands them to its parent's (`kwargs["return_sampling_mask"] = True`, then `super().__init__(*args,
**kwargs)`; a literal keyword of that call too), each under the test `PARAMETER == 'key'` of every
key that starts it.

Read with CPython's parser (nothing of the tree runs). A registry value is `ray.remote(Class)`, or a
class of the module decorated `@ray.remote`. What a subclass does to its `**kwargs` that is not read
here (a value not a literal, `kwargs.update(other)`, the dict handed to another call), or two keys
that start classes writing one key differently, is listed as not read."""

from __future__ import annotations

import ast

from ..model import UNKNOWN
from .built_dicts import Written
from .fork_classes import class_chain
from .fork_source import callee_name, key_writes, literal, snippet

_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)


def registries(module: ast.Module) -> dict[str, dict[str, str]]:
    """The module-level dicts of Ray actor classes: name -> {key: class}."""
    remote = {node.name for node in module.body if isinstance(node, ast.ClassDef) and any(_is_ray_remote(d) for d in node.decorator_list)}
    found = {}
    for statement in module.body:
        value = statement.value if isinstance(statement, (ast.Assign, ast.AnnAssign)) else None
        target = (
            statement.targets[0]
            if isinstance(statement, ast.Assign) and len(statement.targets) == 1
            else getattr(statement, "target", None)
        )
        if not (isinstance(value, ast.Dict) and isinstance(target, ast.Name)):
            continue
        classes = {literal(key): _actor_class(item, remote) for key, item in zip(value.keys, value.values) if key is not None}
        if classes and all(isinstance(key, str) and name for key, name in classes.items()):
            found[target.id] = classes
    return found


def _is_ray_remote(node: ast.expr) -> bool:
    return ast.unparse(node.func if isinstance(node, ast.Call) else node) == "ray.remote"


def _actor_class(node: ast.expr, remote: set[str]) -> str | None:
    """`ray.remote(Class)` -> Class; a class decorated `@ray.remote` by its name; None: another value."""
    if isinstance(node, ast.Call) and _is_ray_remote(node) and len(node.args) == 1 and isinstance(node.args[0], ast.Name):
        return node.args[0].id
    return node.id if isinstance(node, ast.Name) and node.id in remote else None


def chosen_by(function: ast.AST, names: dict[str, dict[str, str]]) -> tuple[str, str] | None:
    """The registry and the parameter of `function` that picks the actor it starts
    (`REGISTRY[param].remote(...)`, `REGISTRY[param].options(...).remote(...)`); None: no such start."""
    parameters = (
        {argument.arg for argument in (*function.args.args, *function.args.kwonlyargs)} if isinstance(function, _FUNCTIONS) else set()
    )
    for node in ast.walk(function):
        if not (isinstance(node, ast.Call) and callee_name(node) == "remote" and isinstance(node.func, ast.Attribute)):
            continue
        started = node.func.value
        if isinstance(started, ast.Call) and callee_name(started) == "options" and isinstance(started.func, ast.Attribute):
            started = started.func.value
        if (
            isinstance(started, ast.Subscript)
            and getattr(started.value, "id", "") in names
            and getattr(started.slice, "id", "") in parameters
        ):
            return started.value.id, started.slice.id  # type: ignore[attr-defined]
    return None


def chosen_writes(module: ast.Module, text: str, function: str, base: str) -> tuple[dict[str, Written], tuple[Written, ...]]:
    """What the classes `function` starts from a registry by a parameter write into their `**kwargs`
    before `base`'s `__init__` gets them (`base`: the class that builds the engine), each under the
    test of the keys that start it; and the writes not read here."""
    defined = next((node for node in ast.walk(module) if isinstance(node, _FUNCTIONS) and node.name == function), None)
    names = registries(module)
    picked = chosen_by(defined, names) if defined is not None else None
    if picked is None:
        return {}, ()
    registry, parameter = picked
    by_key: dict[str, list[tuple[str, Written]]] = {}
    unread: list[Written] = []
    for choice, name in names[registry].items():
        chain = [klass.name for klass in class_chain(module, name)]
        if base not in chain:
            continue
        for klass in class_chain(module, name)[: chain.index(base)]:
            writes, not_read = _init_writes(klass, text)
            unread += not_read
            for written in writes:
                by_key.setdefault(written.key, []).append((choice, written))
    found = {}
    for key, writes in by_key.items():
        if len({(w.value, w.line) for _, w in writes}) > 1 or any(w.value is UNKNOWN for _, w in writes):
            unread += [w for _, w in writes]
            continue
        test = " or ".join(f"{parameter} == {choice!r}" for choice, _ in writes)
        found[key] = Written(key, writes[0][1].value, writes[0][1].text, writes[0][1].line, True, test)
    return found, tuple(unread)


def _init_writes(klass: ast.ClassDef, text: str) -> tuple[list[Written], list[Written]]:
    """A class's `__init__` writes into its `**kwargs` before its `super().__init__(...)` call (and
    that call's literal keywords); the statements there that use the dict otherwise."""
    init = next((s for s in klass.body if isinstance(s, _FUNCTIONS) and s.name == "__init__"), None)
    spread = init.args.kwarg.arg if init is not None and init.args.kwarg is not None else None
    if init is None or spread is None:
        return [], []
    writes, unread = [], []
    for statement in init.body:
        call = _super_init(statement)
        if call is not None:
            for keyword in call.keywords:
                if keyword.arg is not None:
                    writes.append(Written(keyword.arg, literal(keyword.value), snippet(text, keyword), keyword.lineno, True))
            break
        found = [(key, value) for name, key, value in key_writes(statement) if name == spread]
        writes += [Written(key, literal(value), snippet(text, value), statement.lineno, True) for key, value in found]
        if not found and any(isinstance(node, ast.Name) and node.id == spread for node in ast.walk(statement)):
            unread.append(Written("", UNKNOWN, snippet(text, statement), statement.lineno, True))
    return writes, unread


def _super_init(statement: ast.stmt) -> ast.Call | None:
    call = statement.value if isinstance(statement, ast.Expr) else None
    call = call.value if isinstance(call, ast.Await) else call
    if isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr == "__init__":
        return call if isinstance(call.func.value, ast.Call) and getattr(call.func.value.func, "id", "") == "super" else None
    return None

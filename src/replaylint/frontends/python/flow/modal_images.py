"""The environment a Modal function's container starts with: the `.env({...})` calls of the image
given to `@app.function(image=...)` or `@app.cls(image=...)` (else to `modal.App(image=...)`), in
the order the image is built, then the function's `secrets=[modal.Secret.from_dict({...})]`
(modal-labs/modal-examples `vllm_inference.py`: `vllm_image = modal.Image.debian_slim(...)
.pip_install(...).env({...})`, a `@modal.web_server` function that starts `vllm serve`).

An image is followed through the names it is bound to at the module's top level
(`vllm_image = vllm_image.env({...})`); an image Modal builds from a Dockerfile, or one whose
building names the runner variable other than in `.env`, is not read (its variables are not
known here)."""

from __future__ import annotations

import ast
from dataclasses import replace
from typing import Iterator

from ....edits import Sequence, remove
from ....launch_context import EnvPlace
from ....model import UNKNOWN, Span
from ....records import record
from ....vllm.engine_fields import RUNNER_ENV
from ..strings import python_quote
from .frames import ActorEnv, Frame, reaching
from .module import FUNCTIONS, Module, Placed

_APPS = ("modal.App", "modal.Stub")
_DECORATORS = ("function", "cls")
_DOCKERFILES = ("from_dockerfile", "dockerfile_commands")  # their `ENV` lines are not read
_MAX_STEPS = 32  # calls and names followed back from the image given to the decorator


@record(unsafe_hash=True)
class RunnerEntry:
    """The runner variable as one mapping Modal puts in a container's environment writes it
    (`"VLLM_USE_V2_MODEL_RUNNER": "0"`): its text (UNKNOWN: not a literal, or a mapping not read
    may hold it), where, and how a fix removes the entry (None: it cannot)."""

    value: object
    span: Span
    value_span: Span | None
    place: EnvPlace | None


def modal_env(frame: Frame) -> Iterator[ActorEnv]:
    """The mappings Modal puts in the environment of the container `frame` runs in, in order."""
    module = frame.module
    if not _imports_modal(module):
        return
    functions = [scope for scope, _ in frame.sites if isinstance(scope, FUNCTIONS)]
    for definition in (*functions, frame.function, frame.cls):
        found = _definition_env(module, definition) if definition is not None else None
        if found is not None:
            yield from (ActorEnv(module, mapping) for mapping in found)
            return


def container_runner(module: Module) -> dict[int, list[RunnerEntry]]:
    """The runner variable Modal gives each function of the module (and each method of a class)
    that runs in a container, by the line of its `def`, first write first."""
    found: dict[int, list[RunnerEntry]] = {}
    if not _imports_modal(module):
        return found
    for statement in module.tree.body:
        mappings = _definition_env(module, statement) if isinstance(statement, (*FUNCTIONS, ast.ClassDef)) else None
        if not mappings:
            continue
        entries = _runner_entries(module, mappings)
        methods = [s for s in statement.body if isinstance(s, FUNCTIONS)] if isinstance(statement, ast.ClassDef) else [statement]
        found.update((method.lineno, entries) for method in methods if entries)
    return found


def _runner_entries(module: Module, mappings: list[ast.expr]) -> list[RunnerEntry]:
    entries: list[RunnerEntry] = []
    for mapping in mappings:
        if isinstance(mapping, ast.Name):  # a module-level dict by name
            bound = _top_value(module, mapping.id, None)
            mapping = bound[0] if bound is not None else mapping
        if not isinstance(mapping, ast.Dict) or None in mapping.keys:
            if entries:  # a mapping not read may hold it
                entries.append(replace(entries[-1], value=UNKNOWN, place=None))
            continue
        bounds = tuple((module.span(key).start, module.span(value).end) for key, value in zip(mapping.keys, mapping.values))  # type: ignore[arg-type]
        sequence = Sequence(bounds, close=module.span(mapping).end - 1)
        for position, (key, value) in enumerate(zip(mapping.keys, mapping.values)):
            if isinstance(key, ast.Constant) and key.value == RUNNER_ENV:
                text = value.value if isinstance(value, ast.Constant) and isinstance(value.value, str) else UNKNOWN
                removal = remove(module.source.index, sequence, {position})[0].span
                quote = module.source.text[module.span(value).start]
                place = EnvPlace(removal, module.span(value), python_quote(quote if quote in "'\"" else '"'))
                entries.append(RunnerEntry(text, module.span(key, value), module.span(value), place))
    return entries


def _imports_modal(module: Module) -> bool:
    return any(name == "modal" or name.startswith("modal.") for name in module.imports.values())


def _definition_env(module: Module, definition: ast.AST) -> list[ast.expr] | None:
    """The mappings a function or class decorated `@app.function(...)`/`@app.cls(...)` starts with
    (None: not decorated so)."""
    for decorator in getattr(definition, "decorator_list", ()):
        app = _app(module, decorator)
        if app is not None:
            return list(_container_env(module, definition, decorator, app))  # type: ignore[arg-type]
    return None


def _app(module: Module, decorator: ast.expr) -> ast.Call | None:
    """`modal.App(...)` when the decorator is `@app.function(...)`/`@app.cls(...)` of it."""
    if not (isinstance(decorator, ast.Call) and isinstance(decorator.func, ast.Attribute) and decorator.func.attr in _DECORATORS):
        return None
    receiver = decorator.func.value
    made = _top_value(module, receiver.id, None) if isinstance(receiver, ast.Name) else None
    if isinstance(made, tuple) and isinstance(made[0], ast.Call) and _qualified(module, made[0].func) in _APPS:
        return made[0]
    return None


def _container_env(module: Module, definition: ast.AST, decorator: ast.Call, app: ast.Call) -> Iterator[ast.expr]:
    at = _placed(module, definition)
    image = _keyword(decorator, "image") or _keyword(app, "image")
    if image is not None:
        yield from _image_env(module, image, at) or ()
    secrets = _keyword(decorator, "secrets")
    for secret in secrets.elts if isinstance(secrets, (ast.List, ast.Tuple)) else ():
        if isinstance(secret, ast.Call) and _qualified(module, secret.func) == "modal.Secret.from_dict" and secret.args:
            yield secret.args[0]


def _image_env(module: Module, image: ast.expr, at: Placed | None) -> list[ast.expr] | None:
    """The `.env` mappings of an image, first applied first; None: an image not read."""
    found: list[ast.expr] = []
    for _ in range(_MAX_STEPS):
        if isinstance(image, ast.Name):
            bound = _top_value(module, image.id, at)
            if bound is None:
                return None
            image, at = bound
        elif isinstance(image, ast.Call) and isinstance(image.func, ast.Attribute):
            method = image.func.attr
            if method == "env" and len(image.args) == 1 and not image.keywords:
                found.append(image.args[0])
            elif method in _DOCKERFILES or any(RUNNER_ENV in module.text(given) for given in _given(image)):
                return None
            if _qualified(module, image.func.value) == "modal.Image":
                return found[::-1]
            image = image.func.value
        else:
            return None
    return None


def _top_value(module: Module, name: str, at: Placed | None) -> tuple[ast.expr, Placed | None] | None:
    """What a module-level name is bound to before `at` (None: the end of the module)."""
    binding = reaching(Frame(module, module.tree, at=at), name)
    if binding is None or binding.kind != "value" or binding.value is None or binding.element is not None:
        return None
    return binding.value, binding.placed


def _placed(module: Module, definition: ast.AST) -> Placed | None:
    return next((placed for placed in module.statements(module.tree) if placed.statement is definition), None)


def _given(call: ast.Call) -> list[ast.expr]:
    return [*call.args, *(keyword.value for keyword in call.keywords)]


def _keyword(call: ast.Call, name: str) -> ast.expr | None:
    return next((keyword.value for keyword in call.keywords if keyword.arg == name), None)


def _qualified(module: Module, node: ast.expr) -> str:
    """The dotted name an expression spells, its first name as the module imports it (`modal.Image`)."""
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return ""
    return ".".join([module.imports.get(node.id, node.id), *reversed(parts)])

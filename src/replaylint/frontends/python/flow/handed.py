"""The modules of the tree an engine may be handed to: those whose functions a module that
builds (or imports) a replay engine calls, and that send requests themselves (`llm =
build_llm(...)`, then `rollout_group(llm, prompts, top_p=0.95)` from `rollout.py`), also
through a registry dict of functions (`APPROACHES = {"best_of_n": best_of_n}`, then
`APPROACHES[config.approach](x, config, llm)`) and a package's `__init__` that re-exports them.
Their requests are read with the arguments of those calls (`requests.request_frames`)."""

from __future__ import annotations

import ast
import os
from typing import Iterator

from .imported_names import in_tree
from .module import FUNCTIONS, Module
from .reader import Reader
from .refs import Function
from .registries import registered_into


def handed(reader: Reader, caller: Module, engines: Module, words: tuple[str, ...], limit: int) -> Iterator[Module]:
    """The tree's modules (not the caller's, not the engine's) whose functions `caller` calls
    and whose text holds one of `words` (a request method), at most `limit`, each read once."""
    own = {os.path.normpath(caller.path), os.path.normpath(engines.path)}
    found: dict[str, str] = {}
    for qualified in _imported_calls(caller):
        read = reader.tree.path_and_text(qualified, caller)
        if read is not None and os.path.basename(read[0]) == "__init__.py" and not any(word in read[1] for word in words):
            read = _re_exported(reader, qualified, caller) or read
        if read is not None and os.path.normpath(read[0]) not in own and any(word in read[1] for word in words):
            found.setdefault(os.path.normpath(read[0]), read[1])
    for path, text in list(found.items())[:limit]:
        sender = reader.tree.open_file(path, text)
        if sender is not None:
            yield sender


def _re_exported(reader: Reader, qualified: str, caller: Module) -> tuple[str, str] | None:
    """The module a package's `__init__` takes a function from (`from .best_of_n import best_of_n`)."""
    function = in_tree(reader, qualified, caller).ref
    return (function.module.path, function.module.source.text) if isinstance(function, Function) else None


def registry_words(module: Module, name: str) -> tuple[str, ...]:
    """The words of the calls of the function `name` (as the module imports or defines it)
    through a module-level dict of functions that holds it (spelt out, or filled by the
    function's decorator): `APPROACHES[key](...)`, or a name bound to `APPROACHES[key]` and called."""
    local = {name, *(alias for alias, qualified in module.imports.items() if qualified.rsplit(".", 1)[-1] == name)}
    registries = set()
    for statement in module.tree.body:
        held = statement.value.values if isinstance(statement, ast.Assign) and isinstance(statement.value, ast.Dict) else []
        if any(isinstance(value, ast.Name) and value.id in local for value in held):
            registries |= {target.id for target in statement.targets if isinstance(target, ast.Name)}  # type: ignore[attr-defined]
    definition = next((s for s in module.tree.body if isinstance(s, FUNCTIONS) and s.name == name), None)
    registries |= registered_into(module, definition)  # `@register("best_of_n")` over it
    if not registries:
        return ()
    chosen = set()
    for node in ast.walk(module.tree):
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Subscript) and getattr(node.value.value, "id", None) in registries:
            chosen |= {target.id for target in node.targets if isinstance(target, ast.Name)}
    return (*(f"{registry}[" for registry in sorted(registries)), *(f"{held}(" for held in sorted(chosen)))


def _imported_calls(module: Module) -> list[str]:
    """The dotted names of the imported functions a module calls (`rollout_group(...)` of
    `from rollout import rollout_group`, `rollout.rollout_group(...)` of `from agent import rollout`)
    or holds in a dict (a registry of functions, `{"best_of_n": best_of_n}`)."""
    imports = module.imports
    found = set()
    for node in ast.walk(module.tree):
        if isinstance(node, ast.Dict):
            found |= {imports[value.id] for value in node.values if isinstance(value, ast.Name) and value.id in imports}
        func = node.func if isinstance(node, ast.Call) else None
        if isinstance(func, ast.Name) and func.id in imports:
            found.add(imports[func.id])
        elif isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id in imports:
            found.add(f"{imports[func.value.id]}.{func.attr}")
    return sorted(found)

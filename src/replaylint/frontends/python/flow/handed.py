"""The modules of the tree an engine may be handed to: those whose functions a module that
builds (or imports) a replay engine calls, and that send requests themselves (`llm =
build_llm(...)`, then `rollout_group(llm, prompts, top_p=0.95)` from `rollout.py`). Their
requests are read with the arguments of those calls (`requests.request_frames`)."""

from __future__ import annotations

import ast
import os
from typing import Iterator

from .module import Module
from .reader import Reader


def handed(reader: Reader, caller: Module, engines: Module, words: tuple[str, ...], limit: int) -> Iterator[Module]:
    """The tree's modules (not the caller's, not the engine's) whose functions `caller` calls
    and whose text holds one of `words` (a request method), at most `limit`, each read once."""
    own = {os.path.normpath(caller.path), os.path.normpath(engines.path)}
    found: dict[str, str] = {}
    for qualified in _imported_calls(caller):
        read = reader.tree.path_and_text(qualified, caller)
        if read is not None and os.path.normpath(read[0]) not in own and any(word in read[1] for word in words):
            found.setdefault(os.path.normpath(read[0]), read[1])
    for path, text in list(found.items())[:limit]:
        sender = reader.tree.open_file(path, text)
        if sender is not None:
            yield sender


def _imported_calls(module: Module) -> list[str]:
    """The dotted names of the imported functions a module calls (`rollout_group(...)` of
    `from rollout import rollout_group`, `rollout.rollout_group(...)` of `from agent import rollout`)."""
    imports = module.imports
    found = set()
    for node in ast.walk(module.tree):
        func = node.func if isinstance(node, ast.Call) else None
        if isinstance(func, ast.Name) and func.id in imports:
            found.add(imports[func.id])
        elif isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id in imports:
            found.add(f"{imports[func.value.id]}.{func.attr}")
    return sorted(found)

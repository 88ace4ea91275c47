"""Calls of a function through a dict of functions another module keeps: a package's `__init__`
imports it and holds it in a table (AutoRAG's `from .vllm import vllm`, then
`SUPPORT_MODULES = {"vllm": vllm}`), and its users call the entry a key picks
(`SUPPORT_MODULES[module_type](prompts, **module)`). Each such call is a site of the function when
the key read there picks it, or, for a key not known, when every entry of the table is it
(`receivers.names_definition`): a table of several functions read with a key not known calls none.
A table of classes is read alike (weak-to-strong-reasoning's `src/model/__init__.py`: `Models =
{'vllm': VLLMModel}`, made in `src/inference.py` by `Models[args.model_type](args)`)."""

from __future__ import annotations

import ast
import re
from typing import Iterator

from .callsites import Call, calls
from .handed import registry_words
from .module import Module

MAX_TABLES = 4  # modules holding the function in a table, followed


def tabled_calls(
    tree, module: Module, function: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef, users_only: bool = False
) -> Iterator[tuple[Module, Call]]:
    """The `TABLE[key](...)` calls, in the modules near `module` that import `function` into a
    module-level table and in those near each that import the table (`tree`: the reader's;
    `users_only`: in the latter alone)."""
    held = 0
    entry = re.compile(rf":\s*{re.escape(function.name)}\s*[,}}]")  # `"vllm": vllm,` of a dict display
    for path, text in tree.importers_naming(module.path, (function.name,)):
        if not entry.search(text):
            continue  # (no table holds it: no parse)
        holder = tree.open_file(path, text)
        tables = tuple(word[:-1] for word in registry_words(holder, function.name) if word.endswith("[")) if holder is not None else ()
        words = tuple(f"{table}[" for table in tables)
        if not tables:
            continue
        held += 1
        if held > MAX_TABLES:
            return
        if not users_only:
            yield from ((holder, site) for site in calls(holder, words) if _through_table(site.node, tables))
        for user_path, user_text in tree.importers_naming(holder.path, tables):
            named = user_path != holder.path and any(word in user_text for word in words)  # (the tree's known users: it too)
            user = tree.open_file(user_path, user_text) if named else None
            yield from ((user, site) for site in calls(user, words) if _through_table(site.node, tables)) if user is not None else ()


def _through_table(node: ast.Call, tables: tuple[str, ...]) -> bool:
    """`TABLE[key](...)` of one of `tables`."""
    func = node.func
    return isinstance(func, ast.Subscript) and isinstance(func.value, ast.Name) and func.value.id in tables

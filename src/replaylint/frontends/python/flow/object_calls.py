"""Calls of the objects of a class of the tree (`judge = Judge(llm)`, then `judge(prompts)`: its
`__call__`), in the class's module and, when the tree is read for another module's names, in the
modules near it that import it (tunix's `vl_sampler = vllm_sampler.VllmSampler(...)`, then
`vl_sampler(input_strings=..., top_k=20)` in a script)."""

from __future__ import annotations

import ast
from typing import Iterator

from .callsites import Call, calls
from .module import Module
from .reader import Reader

_MAX_IMPORTERS = 6  # modules near the class's opened for its objects' calls


def object_names(module: Module, cls: ast.ClassDef) -> tuple[str, ...]:
    """`name(` for each name a statement of the module binds to `Cls(...)` or `module.Cls(...)`:
    the calls of its objects."""
    names = set()
    for node in ast.walk(module.tree):
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call) and _names_class(node.value.func, cls):
            names |= {f"{target.id}(" for target in node.targets if isinstance(target, ast.Name)}
    return tuple(sorted(names)) or ("\0",)


def _names_class(func: ast.expr, cls: ast.ClassDef) -> bool:
    return (isinstance(func, ast.Name) and func.id == cls.name) or (isinstance(func, ast.Attribute) and func.attr == cls.name)


def called_elsewhere(reader: Reader, module: Module, cls: ast.ClassDef) -> Iterator[tuple[Module, Call]]:
    """The calls of the class's objects in the modules near its own that import it and name it
    (whether each receiver is one is left to `receivers.of_class`)."""
    for opened, (path, text) in enumerate(reader.tree.importers_naming(module.path, (cls.name,)), 1):
        if opened > _MAX_IMPORTERS:
            break
        if f"{cls.name}(" not in text:
            continue  # no construction there: no object of it to call
        other = reader.tree.open_file(path, text)
        if other is not None:
            yield from ((other, site) for site in calls(other, object_names(other, cls)))

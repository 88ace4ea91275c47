"""The calls of a class's method from the scripts at the root of the package the class is in, far above
the folders `tree.nearby` reaches: a module deep in a package of folders without `__init__.py`
(docling's `docling/models/inference_engines/vlm/vllm_engine.py`) that imports its own package by its
dotted name (`from docling.models.inference_engines.vlm.base import VlmEngineInput`) tells where its
programs run: the folder above `docling/`. A script there, or in a folder beside the package
(`examples/`), that imports the module by that name (`from docling.models.inference_engines.vlm.vllm_engine
import VllmVlmEngine`) and names the class is read for the method's calls (`engine.predict(VlmEngineInput(...))`).

Asked only where a request is made from a method's parameters and no caller was found near the class;
only script heads are read until one imports the module."""

from __future__ import annotations

import ast
import os
import re
from typing import Iterator

from ....files import read_head
from .callsites import Call, calls
from .import_roots import own_root
from .module import Module
from .reader import Reader
from .receivers import receiver_made
from .tree import SKIPPED

_MAX_FOLDERS = 16  # folders beside the package looked into
_MAX_SCRIPTS = 32  # scripts whose head is read
_HEAD = 8192


def root_sites(reader: Reader, module: Module, cls: ast.ClassDef, words: tuple[str, ...]) -> list[tuple[Module, Call]]:
    """The calls holding `words` on objects of `cls` in the scripts at its package's root that import its module."""
    found = own_root(module.path, list(module.imports.values()))
    if found is None:
        return []
    root, dotted = found
    sites = []
    for path in _importing_scripts(root, dotted, cls.name):
        text = reader.tree.context.read_text(path)
        other = reader.tree.open_file(path, text) if text is not None and any(word in text for word in words) else None
        if other is not None:
            sites += [(other, site) for site in calls(other, words) if receiver_made(reader, other, site, cls)]
    return sites


def _importing_scripts(root: str, dotted: str, name: str) -> Iterator[str]:
    """The scripts directly in `root` or in a folder beside the top package that import the module
    `dotted` (or a package it is in, then naming `name`) and name `name` (their heads read)."""
    packages = dotted.split(".")
    prefixes = "|".join(re.escape(".".join(packages[:end])) for end in range(len(packages), 1, -1))
    imports = re.compile(rf"^[ \t]*(?:from|import)[ \t]+(?:{prefixes})(?:[ \t]|$)", re.MULTILINE)
    named = re.compile(rf"\b{re.escape(name)}\b")
    read = 0
    for folder in _script_folders(root, packages[0]):
        with os.scandir(folder) as entries:
            scripts = sorted(entry.path for entry in entries if entry.name.endswith(".py") and entry.is_file())
        for script in scripts[: _MAX_SCRIPTS - read]:
            read += 1
            head = read_head(script, _HEAD).decode("utf-8", "replace")
            if imports.search(head) and named.search(head):
                yield script
        if read >= _MAX_SCRIPTS:
            return


def _script_folders(root: str, top: str) -> list[str]:
    try:
        with os.scandir(root) as entries:
            beside = sorted(
                e.path for e in entries if e.is_dir() and e.name != top and not e.name.startswith(".") and e.name not in SKIPPED
            )
    except OSError:
        return []
    return [root, *beside[:_MAX_FOLDERS]]

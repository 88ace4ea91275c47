"""A module-level dict that functions write into, read in a function (a Flask endpoint's
`params_dict`, which each request's params overwrite: `for key, value in params.items(): if key
in params_dict: params_dict[key] = value`). The reading function's own writes before the read
are made as written; a key another function writes (or this one after the read, which the next
call sees) may hold anything, every key where the key written is not known
(`params_dict.update(request.json)`)."""

from __future__ import annotations

import ast
from dataclasses import replace

from ..asts import walk
from .dicts import written
from .facts import Kwargs, unknown
from .frames import Evaluates, Frame

_OPENING: set[tuple[int, str]] = set()  # dicts being read here: a test in a write reads the dict as its module leaves it


def written_by_functions(reader: Evaluates, found: Kwargs, name: str, frame: Frame, writers: list) -> Kwargs:
    """`found` (the module-level `name` as its module leaves it) as `writers` may change it
    before the read at `frame` (in a function)."""
    key = (id(frame.module), name)
    if frame.function is None or key in _OPENING or any(_rebinds(writer, name) for writer in writers):
        return found
    _OPENING.add(key)
    try:
        for writer in writers:
            at = frame if writer is frame.function else Frame(frame.module, writer)
            found = _opened(found, written(reader, found, name, at, frame.at if at is frame else None, None))
        if frame.function in writers:
            found = written(reader, found, name, frame, None, frame.at)
    finally:
        _OPENING.discard(key)
    return found


def _opened(found: Kwargs, changed: Kwargs) -> Kwargs:
    """`found` with each key `changed` holds otherwise (written, removed or added) open."""
    opened = found.copy()
    for key, item in changed.entries.items():
        if found.entries.get(key) is not item:
            opened.entries[key] = replace(unknown(item), guards=(), otherwise=None)
    for key, item in found.entries.items():
        if key not in changed.entries:
            opened.entries[key] = replace(unknown(item), guards=(), otherwise=None)
    opened.reasons.extend(reason for reason in changed.reasons if reason not in opened.reasons)
    return opened


def _rebinds(writer: ast.AST, name: str) -> bool:
    """`global name` in the writer: it may bind another dict (left as the reasons say)."""
    return any(isinstance(node, ast.Global) and name in node.names for node in walk(writer))

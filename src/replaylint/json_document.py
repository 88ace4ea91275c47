"""JSON with positions: the values the standard library's `json` reads (what a launcher of one's
own reads with `json.load`) and where every key and value sits, in `TomlDocument`'s shape so
that the same code reads the engine mappings of either (`frameworks.engine_mappings`).

`json` keeps no positions, so one pass over its tokens records them: of every value, or,
since a large file holds millions, only of the objects asked for, their keys and their own
members (`placed`). It only runs on text `json` accepted, so it never reports errors; a
duplicate key is placed where its last value is written, the one `json` keeps.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from .source import SourceFile
from .toml_document import Entry, Path, PlacedDocument

JsonError = ValueError  # json.JSONDecodeError is one; `values` raises one for nesting too deep to read

# A string (escapes kept), a structural character, or a literal (number, true, false, null).
_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[{}\[\]:,]|[^\s{}\[\]:,"]+')


class JsonDocument(PlacedDocument):
    """A parsed JSON file: values by path (keys and array indices), and where each is written."""


@dataclass
class _Open:
    """A container being read: its path, its own key (or its own start, in an array or at the
    top) and where it opens; and the key or index of the member being read in it."""

    path: Path
    key_start: int
    key_end: int
    start: int
    is_object: bool
    index: int = 0
    key: str | None = None
    member_key: tuple[int, int] = (0, 0)
    expects_key: bool = True


def _positions(text: str, wanted: set[Path] | None = None) -> dict[Path, Entry]:
    """Where each value is written; with `wanted`, only those containers and their members."""
    entries: dict[Path, Entry] = {}
    stack: list[_Open] = []

    def member(start: int) -> tuple[Path, int, int]:
        """The path of the value starting at `start`, and the span of its key."""
        top = stack[-1] if stack else None
        if top is None:
            return (), start, start
        if top.is_object:
            return (*top.path, top.key), *top.member_key
        return (*top.path, top.index), start, start

    for token in _TOKEN.finditer(text):
        word, start, end = token.group(), token.start(), token.end()
        top = stack[-1] if stack else None
        if word in ("{", "["):
            stack.append(_Open(*member(start), start, word == "{"))
        elif word in ("}", "]"):
            done = stack.pop()
            if wanted is None or done.path in wanted or done.path[:-1] in wanted:
                entries[done.path] = Entry(done.key_start, done.key_end, done.start, end)
        elif top is None:
            entries[()] = Entry(start, start, start, end)
        elif word == ":":
            top.expects_key = False
        elif word == ",":
            top.index += 1
            top.expects_key = top.is_object
        elif top.is_object and top.expects_key:
            top.key, top.member_key = json.loads(word), (start, end)
        else:
            path, key_start, key_end = member(start)
            if wanted is None or path[:-1] in wanted:
                entries[path] = Entry(key_start, key_end, start, end)
    return entries


def values(text: str) -> Any:
    """What `json.loads` reads; raises `JsonError` when it does not parse."""
    try:
        return json.loads(text)
    except RecursionError:
        raise JsonError("nested too deeply for Python's json module") from None


def placed(source: SourceFile, data: Any, wanted: set[Path] | None = None) -> JsonDocument:
    """The document of `data`, read from `source`, with every value placed, or only the `wanted`
    containers and their members."""
    return JsonDocument(source, data, _positions(source.text, wanted))


def parses(text: str) -> bool:
    try:
        json.loads(text)
    except (ValueError, RecursionError):
        return False
    return True

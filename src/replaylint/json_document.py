"""JSON with positions: the values the standard library's `json` reads (what a launcher of one's
own reads with `json.load`) and where every key and value sits, in `TomlDocument`'s shape so
that the same code reads the engine mappings of either (`frameworks.engine_mappings`).

`json` keeps no positions, so a second pass over the text records them: of every value, or,
since a large file holds millions, only of the objects asked for, their keys and their own
members (`placed`). It only runs on text `json` accepted, so it never reports errors; a
duplicate key is placed where its last value is written, the one `json` keeps.
"""

from __future__ import annotations

import json
from typing import Any

from .regexes import on_use
from .source import SourceFile
from .toml_document import Entry, Path, PlacedDocument

JsonError = ValueError  # json.JSONDecodeError is one; `values` raises one for nesting too deep to read

_STRING = on_use(r'"[^"\\]*(?:\\.[^"\\]*)*"')  # unrolled: no per-character state in `re`
_SPACE = on_use(r"[ \t\n\r]*")
_DECODER = json.JSONDecoder()


class JsonDocument(PlacedDocument):
    """A parsed JSON file: values by path (keys and array indices), and where each is written."""


class _Placer:
    """Walks the text down to the containers wanted (every one when `wanted` is None), placing
    their members; any other value is passed over by `json`'s own scanner (`raw_decode`), so a
    large file costs little more than `json.loads` and Python work grows only with what is
    placed."""

    def __init__(self, text: str, wanted: set[Path] | None) -> None:
        self.text = text
        self.wanted = wanted
        self.on_the_way = None if wanted is None else {path[:length] for path in wanted for length in range(len(path) + 1)}
        self.entries: dict[Path, Entry] = {}

    def value(self, position: int, path: Path, key: tuple[int, int] | None) -> int:
        """Place the value at `position` (and what it holds, when wanted); its end."""
        start = _SPACE.match(self.text, position).end()
        if self.text[start] in "{[" and (self.on_the_way is None or path in self.on_the_way):
            end = self.container(start, path)
        else:
            _, end = _DECODER.raw_decode(self.text, start)
        if self.wanted is None or path in self.wanted or path[:-1] in self.wanted:
            self.entries[path] = Entry(*(key or (start, start)), start, end)
        return end

    def container(self, start: int, path: Path) -> int:
        is_object = self.text[start] == "{"
        position = _SPACE.match(self.text, start + 1).end()
        index = 0
        while self.text[position] not in "}]":
            if is_object:
                key = _STRING.match(self.text, position)
                colon = _SPACE.match(self.text, key.end()).end()
                position = self.value(colon + 1, (*path, json.loads(key.group())), key.span())
            else:
                position = self.value(position, (*path, index), None)
            position = _SPACE.match(self.text, position).end()
            if self.text[position] == ",":
                position = _SPACE.match(self.text, position + 1).end()
                index += 1
        return position + 1


def values(text: str) -> Any:
    """What `json.loads` reads; raises `JsonError` when it does not parse."""
    try:
        return json.loads(text)
    except RecursionError:
        raise JsonError("nested too deeply for Python's json module") from None


def placed(source: SourceFile, data: Any, wanted: set[Path] | None = None) -> JsonDocument:
    """The document of `data`, read from `source`, with every value placed, or only the `wanted`
    containers and their members."""
    placer = _Placer(source.text, wanted)
    try:
        placer.value(0, (), None)
    except RecursionError:  # every value wanted, nested deeper than Python recurses: the rest falls back
        pass
    return JsonDocument(source, data, placer.entries)


def parses(text: str) -> bool:
    try:
        json.loads(text)
    except (ValueError, RecursionError):
        return False
    return True

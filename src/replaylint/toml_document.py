"""TOML with positions: the values `tomllib` reads (what prime-rl reads) and where every key
and value sits.

`tomllib` keeps no positions, so a small scanner walks the same text once more and records
where every key and value sits: table headers (`[a.b]`, `[[a.b]]` with the index of each array
element), dotted keys (`env.id = ...`) and the keys of inline tables (`sampling = { top_k = 64
}`). Strings (basic, literal, multi-line), comments and multi-line arrays are skipped as TOML
1.0 writes them. The scanner only runs on text `tomllib` accepted, so it never has to report
errors; a key it cannot place falls back to its table's header.
"""

from __future__ import annotations

import re
import sys
from dataclasses import field
from typing import Any

from .model import Span
from .records import record
from .regexes import on_use
from .source import SourceFile

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib  # type: ignore[no-redef]

TomlError = tomllib.TOMLDecodeError


class NumberTooLong(TomlError):
    """An integer with more digits than Python converts (`sys.get_int_max_str_digits`): tomllib
    raises a plain ValueError for it. TOML integers are 64-bit, so the text is not valid TOML."""

    def __init__(self, message: str) -> None:
        ValueError.__init__(self, message)  # TOMLDecodeError takes (msg, doc, pos) from Python 3.14


def loads(text: str) -> dict[str, Any]:
    """`tomllib.loads`; raises `TomlError` for any text it refuses, a number too long included."""
    try:
        return tomllib.loads(text)
    except TomlError:
        raise
    except ValueError:  # int(): "Exceeds the limit (4300 digits) for integer string conversion"
        raise NumberTooLong(_too_long(text)) from None


def _too_long(text: str) -> str:
    """The message for the first integer Python will not convert, with its key and place."""
    limit = getattr(sys, "get_int_max_str_digits", lambda: 4300)() or 4300
    number = re.search(rf"(?<![0-9_])[+-]?[0-9](?:_?[0-9]){{{limit},}}", text)
    if number is None:
        return f"an integer of more than {limit:,} digits (TOML integers are 64-bit)"
    line_start = text.rfind("\n", 0, number.start()) + 1
    line, col = text.count("\n", 0, line_start) + 1, number.start() - line_start + 1
    key = re.match(r"\s*([^=\s][^=]*?)\s*=", text[line_start : number.start()])
    named = f" (`{key.group(1)}`)" if key else ""
    digits = sum(char.isdigit() for char in number.group())
    return f"an integer of {digits:,} digits{named}: TOML integers are 64-bit (at line {line}, column {col})"


Path = tuple[Any, ...]  # keys (str) and array-of-tables indices (int)

_BARE = on_use(r"[A-Za-z0-9_-]+")
_SCALAR_END = on_use(r"[,\]}\n#]")


@record(unsafe_hash=True)
class Entry:
    """Where one key is written: the key (first to last dotted part) and its value."""

    key_start: int
    key_end: int
    value_start: int
    value_end: int


@record
class PlacedDocument:
    """A parsed file's values by path, and where each key and value is written (TOML's, JSON's)."""

    source: SourceFile
    data: Any
    entries: dict[Path, Entry] = field(default_factory=dict)

    def span(self, *path: Any) -> Span | None:
        """The key and value of `path` (`top_p = 0.95`, `"top_p": 0.95`)."""
        entry = self.entries.get(tuple(path))
        return None if entry is None else self.source.index.span(entry.key_start, entry.value_end)

    def value_span(self, *path: Any) -> Span | None:
        entry = self.entries.get(tuple(path))
        return None if entry is None else self.source.index.span(entry.value_start, entry.value_end)

    def text(self, span: Span) -> str:
        return " ".join(self.source.text[span.start : span.end].split())

    def nearest(self, *path: Any) -> Span:
        """The span of `path`, else of its closest written ancestor, else the start of the file."""
        for length in range(len(path), 0, -1):
            found = self.span(*path[:length])
            if found is not None:
                return found
        return self.source.index.span(0, 0)


@record
class TomlDocument(PlacedDocument):
    """A parsed TOML file: values by path, and the spans of the keys and tables written in it."""

    data: dict[str, Any]
    headers: dict[Path, tuple[int, int]] = field(default_factory=dict)

    def value(self, *path: Any, default: Any = None) -> Any:
        node: Any = self.data
        for part in path:
            if isinstance(part, int):
                if not isinstance(node, list) or part >= len(node):
                    return default
                node = node[part]
            elif isinstance(node, dict) and part in node:
                node = node[part]
            else:
                return default
        return node

    def has(self, *path: Any) -> bool:
        marker = object()
        return self.value(*path, default=marker) is not marker

    def span(self, *path: Any) -> Span | None:
        """The key and value of `path` (`top_p = 0.95`), or the header of a table (`[inference]`)."""
        found = super().span(*path)
        header = self.headers.get(tuple(path)) if found is None else None
        return self.source.index.span(*header) if header is not None else found


# -- the scanner ------------------------------------------------------------------------------


class _Scanner:
    def __init__(self, text: str, document: TomlDocument) -> None:
        self.text = text
        self.document = document
        self.position = 0
        self.arrays: dict[Path, int] = {}

    def run(self) -> None:
        table: Path = ()
        while True:
            self._skip(newlines=True)
            if self.position >= len(self.text):
                return
            start = self.position
            if self.text.startswith("[[", start):
                self.position += 2
                keys = self._key()
                self._expect("]]")
                path = (*self._resolve(keys[:-1]), keys[-1])
                index = self.arrays.get(path, 0)
                self.arrays[path] = index + 1
                table = (*path, index)
                self.document.headers[table] = (start, self.position)
                self.document.headers.setdefault(path, (start, self.position))
            elif self.text[start] == "[":
                self.position += 1
                keys = self._key()
                self._expect("]")
                table = self._resolve(keys)
                self.document.headers[table] = (start, self.position)
            else:
                self._pair(table)
            self._skip_line()

    def _resolve(self, keys: list[str]) -> Path:
        """A header's path, with the current element of every array of tables on the way."""
        path: Path = ()
        for key in keys:
            path = (*path, key)
            if path in self.arrays:
                path = (*path, self.arrays[path] - 1)
        return path

    def _pair(self, table: Path) -> None:
        key_start, key_end, path = self._entry(table)
        for length in range(len(table) + 1, len(path)):
            self.document.headers.setdefault(path[:length], (key_start, key_end))

    def _entry(self, prefix: Path | None) -> tuple[int, int, Path]:
        """`key = value` below `prefix`, recorded with where its key and value are (None: a
        table inside an array, whose keys have no path of their own)."""
        key_start = self.position
        keys = self._key()
        key_end = self.position
        self._skip()
        self._expect("=")
        self._skip()
        path = (*prefix, *keys) if prefix is not None else ()
        value_start = self.position
        self._value(path)
        if path:
            self.document.entries[path] = Entry(key_start, key_end, value_start, self.position)
        return key_start, key_end, path

    def _key(self) -> list[str]:
        keys = []
        while True:
            self._skip()
            char = self.text[self.position : self.position + 1]
            if char in ('"', "'"):
                start = self.position
                self._string()
                keys.append(tomllib.loads("k = " + self.text[start : self.position])["k"])
            else:
                match = _BARE.match(self.text, self.position)
                if match is None:
                    raise ValueError("key expected")
                keys.append(match.group())
                self.position = match.end()
            self._skip()
            if self.text.startswith(".", self.position):
                self.position += 1
                continue
            return keys

    def _value(self, path: Path) -> None:
        text, start = self.text, self.position
        if text.startswith(('"""', "'''", '"', "'"), start):
            self._string()
        elif text.startswith("[", start):
            self.position += 1
            while True:
                self._skip(newlines=True)
                if text.startswith("]", self.position):
                    self.position += 1
                    return
                self._value(())
                self._skip(newlines=True)
                if text.startswith(",", self.position):
                    self.position += 1
        elif text.startswith("{", start):
            self.position += 1
            while True:
                self._skip()
                if text.startswith("}", self.position):
                    self.position += 1
                    return
                self._entry(path if path else None)
                self._skip()
                if text.startswith(",", self.position):
                    self.position += 1
        else:
            match = _SCALAR_END.search(text, start)
            end = match.start() if match else len(text)
            self.position = start + len(text[start:end].rstrip())

    def _string(self) -> None:
        text = self.text
        for quote in ('"""', "'''"):
            if text.startswith(quote, self.position):
                position = self.position + 3
                while True:
                    found = text.find(quote, position)
                    if found == -1:
                        raise ValueError("unterminated string")
                    if quote == '"""' and _escaped(text, found):
                        position = found + 1
                        continue
                    end = found + 3
                    while end < len(text) and text[end] == quote[0] and end - found < 5:
                        end += 1
                    self.position = end
                    return
        quote = text[self.position]
        position = self.position + 1
        while position < len(text):
            char = text[position]
            if char == "\\" and quote == '"':
                position += 2
                continue
            if char == quote:
                self.position = position + 1
                return
            position += 1
        raise ValueError("unterminated string")

    def _skip(self, newlines: bool = False) -> None:
        text = self.text
        while self.position < len(text):
            char = text[self.position]
            if char in " \t" or (newlines and char in "\r\n"):
                self.position += 1
            elif char == "#":
                end = text.find("\n", self.position)
                self.position = len(text) if end == -1 else end
            else:
                return

    def _skip_line(self) -> None:
        self._skip()
        end = self.text.find("\n", self.position)
        self.position = len(self.text) if end == -1 else end + 1

    def _expect(self, word: str) -> None:
        self._skip()
        if not self.text.startswith(word, self.position):
            raise ValueError(f"{word!r} expected")
        self.position += len(word)


def _escaped(text: str, position: int) -> bool:
    backslashes = 0
    while position - backslashes - 1 >= 0 and text[position - backslashes - 1] == "\\":
        backslashes += 1
    return backslashes % 2 == 1


def read(source: SourceFile) -> TomlDocument:
    """The document of a TOML file; raises `TomlError` when it does not parse."""
    data = loads(source.text)
    document = TomlDocument(source, data)
    try:
        _Scanner(source.text, document).run()
    except (ValueError, IndexError):
        pass  # spans found so far are kept; the rest falls back to table headers
    return document


def parses(text: str) -> bool:
    try:
        loads(text)
    except TomlError:
        return False
    return True

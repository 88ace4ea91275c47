"""The exec form of an instruction (a JSON array of strings, possibly over continued lines) with
the bounds of each word, the characters
of a JSON string literal, and how replaylint writes words back (JSON strings, `ENV` values).
"""

from __future__ import annotations

import json
import re
from typing import Callable

from ...records import record
from ...source import ParseError
from .lines import Logical, is_json_array

_JSON_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)


_SIMPLE_VALUE = re.compile(r"[A-Za-z0-9_./:@%+,=-]+")


@record(unsafe_hash=True)
class Word:
    """One exec-form word: its value, its text as written, its source offsets (quotes included)."""

    text: str
    raw: str
    start: int
    end: int
    literal: Logical | None = None


@record(unsafe_hash=True)
class ExecForm:
    words: tuple[Word, ...]
    close: int


def read_exec_form(rest: Logical, line: int) -> ExecForm | None:
    """The JSON array of an exec-form instruction, or None for shell form."""
    if not is_json_array(rest.text):
        return None
    values = json.loads(rest.text)
    if not all(isinstance(value, str) for value in values):
        raise ParseError("when using JSON array syntax, arrays must be comprised of strings only", line)
    words = []
    position = rest.text.index("[") + 1
    for value in values:
        match = _JSON_STRING.search(rest.text, position)
        assert match is not None
        start, end = rest.source_range(*match.span())
        words.append(Word(value, match.group(), start, end, rest.slice(*match.span())))
        position = match.end()
    return ExecForm(tuple(words), rest.offset(rest.text.rindex("]")))


_JSON_ESCAPES = {'"': '"', "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}


def json_characters(literal: Logical) -> Logical:
    """The decoded text of a JSON string literal, each character at its source offset."""
    text = literal.text
    characters: list[str] = []
    offsets: list[int] = []
    index = 1
    while index < len(text) - 1:
        char = text[index]
        start = index
        if char != "\\":
            index += 1
        elif text[index + 1] == "u":
            code = int(text[index + 2 : index + 6], 16)
            index += 6
            low = int(text[index + 2 : index + 6], 16) if text.startswith("\\u", index) else 0
            if 0xD800 <= code < 0xDC00 and 0xDC00 <= low < 0xE000:
                code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                index += 6
            char = chr(code)
        else:
            char = _JSON_ESCAPES[text[index + 1]]
            index += 2
        characters.append(char)
        offsets.append(literal.offset(start))
    return Logical("".join(characters), tuple(offsets), literal.offset(len(text) - 1))


def json_quote(word: str) -> str:
    return json.dumps(word)


def json_escape(text: str) -> str:
    return json.dumps(text)[1:-1]


def docker_quoter(escape: str) -> Callable[[str], str]:
    def quote(value: str) -> str:
        if _SIMPLE_VALUE.fullmatch(value):
            return value
        body = value.replace(escape, escape + escape).replace('"', escape + '"').replace("$", escape + "$")
        return f'"{body}"'

    return quote

"""Docker's word expansion (buildkit's shell lexer `ProcessWord`: quotes, escapes, `$V`,
`${V:-w}` ...) and the `NAME=value` pairs of `ENV` and `ARG` (also the legacy `ENV NAME value`).
A part that cannot be known expands to `UNKNOWN_PART`, so the value is unknown. Substitution
can double a value on each line (`ENV A1=$A0$A0`): an expansion that substitutes more than
`VALUE_LIMIT` characters raises `ValueTooLong`.
"""

from __future__ import annotations

import re
from typing import Callable

from ...records import record
from .lines import KEYWORD, Instruction, Logical, word_bounds

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


# What an expansion yields for a part that cannot be known; the value is then unknown.
UNKNOWN_PART = "\x00"

# The characters one expansion may substitute: far beyond any real `ENV`, `ARG`, image or path,
# yet reached by 16 lines of `ENV A1=$A0$A0` from one character (30 such lines make 4 GB).
VALUE_LIMIT = 1 << 16


class ValueTooLong(Exception):
    """An expansion substituted more than `VALUE_LIMIT` characters."""

    def __init__(self) -> None:
        super().__init__(f"values that substitution makes longer than {VALUE_LIMIT:,} characters are not read")


# -- values: Docker's word expansion ---------------------------------------------------------------

Lookup = Callable[[str], "str | None"]


class _Expander:
    """buildkit's shell lexer `ProcessWord`: quotes removed, escapes applied, `$V` substituted.

    `lookup` returns None for a variable whose value cannot be known; its part becomes
    `UNKNOWN_PART`. Modifiers other than `-`, `+`, `?` (with or without `:`) are unknown too.
    """

    def __init__(self, text: str, escape: str, lookup: Lookup) -> None:
        self.text = text
        self.escape = escape
        self.lookup = lookup
        self.index = 0
        self.substituted = 0  # characters the lookups gave, taken or not (`${V:+w}`)

    def word(self, stop: str = "") -> str:
        parts = []
        while self.index < len(self.text) and self.text[self.index] not in stop:
            char = self.text[self.index]
            if char == self.escape:
                parts.append(self.text[self.index + 1 : self.index + 2])
                self.index += 2
            elif char == "'":
                parts.append(self._single_quoted())
            elif char == '"':
                parts.append(self._double_quoted())
            elif char == "$":
                parts.append(self._dollar())
            else:
                parts.append(char)
                self.index += 1
        return "".join(parts)

    def _single_quoted(self) -> str:
        close = self.text.find("'", self.index + 1)
        if close == -1:
            self.index = len(self.text)
            return UNKNOWN_PART
        part = self.text[self.index + 1 : close]
        self.index = close + 1
        return part

    def _double_quoted(self) -> str:
        parts = []
        self.index += 1
        while self.index < len(self.text):
            char = self.text[self.index]
            if char == '"':
                self.index += 1
                return "".join(parts)
            if char == "$":
                parts.append(self._dollar())
                continue
            if char == self.escape and self.text[self.index + 1 : self.index + 2] in ('"', "$", self.escape):
                self.index += 1
                char = self.text[self.index]
            parts.append(char)
            self.index += 1
        return UNKNOWN_PART

    def _dollar(self) -> str:
        self.index += 1
        if self.text.startswith("{", self.index):
            return self._braced()
        name = _NAME.match(self.text, self.index)
        if name is None:
            if self.index < len(self.text) and (self.text[self.index].isdigit() or self.text[self.index] in "@*#?$!-"):
                self.index += 1
                return UNKNOWN_PART
            return "$"
        self.index = name.end()
        return self._value(name.group())

    def _braced(self) -> str:
        self.index += 1
        name = _NAME.match(self.text, self.index)
        if name is None:
            return self._skip_braces()
        self.index = name.end()
        rest = self.text[self.index : self.index + 2]
        if rest.startswith("}"):
            self.index += 1
            return self._value(name.group())
        colon = rest.startswith(":")
        operator = rest[1:2] if colon else rest[:1]
        if operator not in ("-", "+", "?"):
            return self._skip_braces()
        self.index += 2 if colon else 1
        alternative = self.word(stop="}")
        self.index += 1
        return _modified(self._lookup(name.group()), colon, operator, alternative)

    def _skip_braces(self) -> str:
        depth = 1
        while self.index < len(self.text) and depth:
            depth += {"{": 1, "}": -1}.get(self.text[self.index], 0)
            self.index += 1
        return UNKNOWN_PART

    def _value(self, name: str) -> str:
        value = self._lookup(name)
        return UNKNOWN_PART if value is None else value

    def _lookup(self, name: str) -> str | None:
        value = self.lookup(name)
        if value is not None:
            self.substituted += len(value)
            if self.substituted > VALUE_LIMIT:
                raise ValueTooLong()
        return value


def _modified(value: str | None, colon: bool, operator: str, alternative: str) -> str:
    if value is None or UNKNOWN_PART in value:
        return UNKNOWN_PART
    present = bool(value) if colon else True
    if operator == "-":
        return value if present else alternative
    if operator == "+":
        return alternative if present else ""
    return value if present else UNKNOWN_PART


def expand(text: str, escape: str, lookup: Lookup) -> str:
    """A word as Docker substitutes it; unknown parts are `UNKNOWN_PART`. Raises
    `ValueTooLong`."""
    return _Expander(text, escape, lookup).word()


# -- assignments: ENV and ARG ----------------------------------------------------------------------


@record(unsafe_hash=True)
class Pair:
    """`NAME=value` (or legacy `ENV NAME value`): the raw value and source ranges."""

    name: str
    value: str | None  # raw text, None for `ARG NAME` without default
    start: int
    end: int
    value_start: int
    value_end: int
    raw: str


def read_pairs(instruction: Instruction, escape: str) -> list[Pair]:
    """ENV (`parseNameVal`) and ARG (`parseNameOrNameVal`); [] for what Docker rejects."""
    args = instruction.args
    bounds = word_bounds(args.text, escape)
    if not bounds:
        return []
    first = args.text[bounds[0][0] : bounds[0][1]]
    if instruction.keyword == "ENV" and "=" not in first:
        return _legacy_pair(args)
    pairs = []
    for start, end in bounds:
        word = args.text[start:end]
        name, equals, value = word.partition("=")
        if not equals and instruction.keyword == "ENV":
            return []
        value_start = start + len(name) + len(equals)
        source_start, source_end = args.source_range(start, end)
        value_range = args.source_range(value_start, end) if equals else (source_end, source_end)
        pairs.append(Pair(name, value if equals else None, source_start, source_end, *value_range, word))
    return pairs


def _legacy_pair(args: Logical) -> list[Pair]:
    name = KEYWORD.match(args.text)
    assert name is not None
    rest = args.slice(name.end()).strip()
    if not rest.text:
        return []
    start, end = args.source_range(0, len(args.text))
    value_start, value_end = rest.source_range(0, len(rest.text))
    return [Pair(name.group(), rest.text, start, end, value_start, value_end, args.text)]

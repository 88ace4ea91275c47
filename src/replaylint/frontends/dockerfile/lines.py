"""Docker's line reader (moby/buildkit `frontend/dockerfile/parser`): parser directives,
the escape character and line continuations, comment and blank lines inside a continued
instruction, heredocs; the result is the file's instructions, each with its arguments as
`Logical` text that keeps the source offset of every character, split into words as Docker
splits them (leading `--flags` apart, JSON arrays recognised).
"""

from __future__ import annotations

import json
import re

from ...records import record
from ...source import ParseError

_DIRECTIVE = re.compile(r"#\s*([a-zA-Z][a-zA-Z0-9]*)\s*=\s*(.+?)\s*$")
_DIRECTIVES = ("syntax", "escape", "check")
KEYWORD = re.compile(r"[^\t\v\f\r ]+")
HEREDOC_WORD = re.compile(r"^(\d*)<<(-?)([^<]*)$")
_HEREDOC_KEYWORDS = ("RUN", "COPY", "ADD")


def _continuation(escape: str) -> re.Pattern[str]:
    """buildkit: the escape character, not itself escaped, then only blanks, ends the line."""
    quoted = re.escape(escape)
    return re.compile(rf"(?<!{quoted}){quoted}[ \t]*$")


# -- reading: Docker's line reader -------------------------------------------------------------


@record(unsafe_hash=True)
class Logical:
    """Text as Docker sees it (continuations joined, comment lines dropped), with the source
    offset of every character."""

    text: str
    offsets: tuple[int, ...]
    end: int

    def offset(self, index: int) -> int:
        return self.offsets[index] if index < len(self.offsets) else self.end

    def source_range(self, start: int, end: int) -> tuple[int, int]:
        if end <= start:
            return self.offset(start), self.offset(start)
        return self.offsets[start], self.offsets[end - 1] + 1

    def slice(self, start: int, end: int | None = None) -> Logical:
        end = len(self.text) if end is None else end
        return Logical(self.text[start:end], self.offsets[start:end], self.offset(end) if end < len(self.text) else self.end)

    def strip(self) -> Logical:
        text = self.text
        start = len(text) - len(text.lstrip())
        end = len(text.rstrip())
        return self.slice(start, max(start, end))


@record(unsafe_hash=True)
class Heredoc:
    name: str
    chomp: bool
    body: Logical
    terminator: Logical


@record(unsafe_hash=True)
class Instruction:
    keyword: str
    start: int
    end: int  # just after the last character of its last line (heredoc terminators included)
    args: Logical
    heredocs: tuple[Heredoc, ...] = ()


@record(unsafe_hash=True)
class Dockerfile:
    escape: str
    instructions: tuple[Instruction, ...]


def _physical_lines(text: str) -> list[tuple[int, int]]:
    """(start, end) of each line without its line break."""
    lines = []
    start = 0
    while start < len(text):
        newline = text.find("\n", start)
        stop = len(text) if newline == -1 else newline
        end = stop - 1 if stop > start and text[stop - 1] == "\r" else stop
        lines.append((start, end))
        start = stop + 1
    return lines


class _Reader:
    def __init__(self, text: str) -> None:
        self.text = text
        self.lines = _physical_lines(text)
        self.position = 0
        self.escape = "\\"
        self.continues = _continuation(self.escape)
        self.directives_done = False
        self.seen: set[str] = set()

    def read(self) -> Dockerfile:
        instructions = []
        while self.position < len(self.lines):
            instruction = self._instruction()
            if instruction is not None:
                instructions.append(instruction)
        return Dockerfile(self.escape, tuple(instructions))

    def _directive(self, line: str, number: int) -> None:
        if self.directives_done:
            return
        match = _DIRECTIVE.match(line)
        key = match.group(1).lower() if match else ""
        if key not in _DIRECTIVES:
            self.directives_done = True
            return
        if key in self.seen:
            raise ParseError(f"only one {key} parser directive can be used", number)
        self.seen.add(key)
        if key == "escape":
            value = match.group(2)  # type: ignore[union-attr]
            if value not in ("\\", "`"):
                raise ParseError(f"invalid escape token '{value}' does not match ` or \\", number)
            self.escape = value
            self.continues = _continuation(value)

    def _next_line(self) -> tuple[int, int, int]:
        start, end = self.lines[self.position]
        self.position += 1
        return start, end, self.position

    def _instruction(self) -> Instruction | None:
        start, end, number = self._next_line()
        line = self.text[start:end]
        start += len(line) - len(line.lstrip())
        self._directive(self.text[start:end], number)
        if self.text.startswith("#", start):
            return None
        pieces = []
        last_end = end
        piece_end, continued = self._trim(start, end)
        if not continued and piece_end == start:
            return None
        pieces.append((start, piece_end))
        while continued and self.position < len(self.lines):
            line_start, line_end, _ = self._next_line()
            content = self.text[line_start:line_end]
            last_end = line_end
            if content.lstrip().startswith("#") or not content.strip():
                continue
            piece_end, continued = self._trim(line_start, line_end)
            pieces.append((line_start, piece_end))
        logical = _joined(self.text, pieces, last_end)
        return self._split(logical, last_end, number)

    def _trim(self, start: int, end: int) -> tuple[int, bool]:
        match = self.continues.search(self.text, start, end)
        if match is None or match.end() != end:
            return end, False
        return match.start(), True

    def _split(self, logical: Logical, end: int, line: int) -> Instruction | None:
        match = KEYWORD.match(logical.text)
        if match is None:
            return None
        keyword = match.group().upper()
        args = logical.slice(match.end()).strip()
        heredocs: tuple[Heredoc, ...] = ()
        if _may_hold_heredocs(keyword, args) and "<<" in args.text:
            heredocs = tuple(self._heredoc(name, chomp, line) for name, chomp in _heredoc_names(args.text))
            if heredocs:
                end = heredocs[-1].terminator.end
        return Instruction(keyword, logical.offset(0), end, args, heredocs)

    def _heredoc(self, name: str, chomp: bool, line: int) -> Heredoc:
        pieces = []
        while self.position < len(self.lines):
            start, end, _ = self._next_line()
            content = self.text[start:end]  # not `line`: that is the number the error reports
            candidate = content.lstrip("\t") if chomp else content
            if candidate == name:
                body = _joined(self.text, pieces, start, with_breaks=True)
                return Heredoc(name, chomp, body, _joined(self.text, [(start, end)], end))
            if chomp:
                start += len(content) - len(candidate)
            pieces.append((start, end))
        raise ParseError(f"unterminated heredoc: no line `{name}` ends it", line)


def _joined(text: str, pieces: list[tuple[int, int]], end: int, with_breaks: bool = False) -> Logical:
    characters: list[str] = []
    offsets: list[int] = []
    for start, stop in pieces:
        characters.append(text[start:stop])
        offsets.extend(range(start, stop))
        if with_breaks:
            characters.append("\n")
            offsets.append(stop)
    return Logical("".join(characters), tuple(offsets), end)


def _may_hold_heredocs(keyword: str, args: Logical) -> bool:
    if keyword == "ONBUILD":
        inner = KEYWORD.match(args.text)
        return inner is not None and _may_hold_heredocs(inner.group().upper(), args.slice(inner.end()).strip())
    return keyword in _HEREDOC_KEYWORDS and not is_json_array(without_flags(args)[1].text)


def _heredoc_names(text: str) -> list[tuple[str, bool]]:
    """buildkit's heredocsFromLine: every word `[n]<<[-]NAME`, NAME without its quotes."""
    names = []
    for start, end in word_bounds(text, "\\"):
        match = HEREDOC_WORD.match(text[start:end])
        if match and match.group(3):
            names.append((_unquoted(match.group(3)), match.group(2) == "-"))
    return names


def _unquoted(word: str) -> str:
    return re.sub(r"\\(.)", r"\1", word.replace('"', "").replace("'", ""))


def read_dockerfile(text: str) -> Dockerfile:
    return _Reader(text).read()


def word_bounds(text: str, escape: str) -> list[tuple[int, int]]:
    """buildkit's parseWords: blank-separated words; quotes and escapes keep blanks inside."""
    bounds = []
    start: int | None = None
    quote = ""
    index = 0
    while index < len(text):
        char = text[index]
        if not quote and char.isspace():
            if start is not None:
                bounds.append((start, index))
                start = None
        else:
            if start is None:
                start = index
            if quote:
                if char == quote:
                    quote = ""
                elif char == escape and quote != "'":
                    index += 1
            elif char in "'\"":
                quote = char
            elif char == escape:
                index += 1
        index += 1
    if start is not None:
        bounds.append((start, min(index, len(text))))
    return bounds


def without_flags(args: Logical) -> tuple[list[str], Logical]:
    """Docker's own leading `--flag[=value]` words, and the rest of the arguments."""
    flags = []
    for start, end in word_bounds(args.text, "\\"):
        word = args.text[start:end]
        if not word.startswith("--"):
            return flags, args.slice(start)
        if word == "--":
            return flags, args.slice(end).strip()
        flags.append(word)
    return flags, args.slice(len(args.text))


def is_json_array(text: str) -> bool:
    if not text.lstrip().startswith("["):
        return False
    try:
        return isinstance(json.loads(text), list)
    except (ValueError, RecursionError):
        return False

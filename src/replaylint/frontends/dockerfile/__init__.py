"""Dockerfile frontend: the command each image starts, and `vllm serve` inside `RUN`.

Docker's own reading is followed (moby/buildkit `frontend/dockerfile/parser`, `instructions`
and `dockerfile2llb` dispatchers):

- Lines: parser directives (`# syntax=`, `# escape=`, `# check=`) count only at the top; the
  escape character (`\\`, or `` ` `` after `# escape=``) at the end of a line continues the
  instruction, and comment lines and blank lines inside a continued instruction are dropped;
  `#` starts a comment only at the start of a line. Heredocs (`RUN <<EOF`, `<<-EOF`, quoted
  names, several per line) take their lines along.
- Exec form: the arguments are a JSON array of strings, possibly over continued lines; any other
  text is shell form and runs as `SHELL` + text (`/bin/sh -c "..."`).
- Leading `--words` are Docker's own instruction flags (`RUN --mount=...`). `CMD` and
  `ENTRYPOINT` have none, so `CMD --model x` is an "unknown flag" error of `docker build`.
- Stages: `FROM image AS name`; `FROM name` starts from an earlier stage and keeps its ENV,
  entrypoint, command, shell and vLLM release. `ARG`s live in their stage and reach `RUN`
  only (global ARGs reach `FROM` lines and `ARG NAME` redeclarations); `ENV` stays in the
  image. Variables are substituted in `FROM`/`ARG`/`ENV` as Docker does (`$V`, `${V:-w}` ...);
  exec-form words are passed on literally. A variable we cannot know (an ARG without default,
  one the base image may set) makes the value unknown.
- The image's command is its last `ENTRYPOINT` plus its last `CMD`; an `ENTRYPOINT` drops the
  `CMD` inherited from the base. `vllm/vllm-openai` has `ENTRYPOINT ["vllm", "serve"]`, so its
  `CMD` holds arguments only. Every stage that no later stage builds on can be the image
  (`docker build --target`), so each one's command is a launch.

Why not the tree-sitter-dockerfile grammar (0.2.0 on tree-sitter 0.26): it reads line
continuations, exec-form JSON over continued lines, comment lines inside them, heredocs (also
`<<-"EOF"` and several per line) and `# syntax=` (a plain comment) as Docker does, but it
cannot represent several forms Docker accepts, and its error recovery then folds the rest of
the file into one ERROR node, so every launch below is lost (or the file would be reported
unparsable): the legacy `ENV TORCH_CUDA_ARCH_LIST 8.0 9.0` (a value with spaces, common in ML
images), `ARG A=1 B`, the `# escape=`` directive (backtick continuations are not known), a
bracket that is not JSON (`CMD ['a']`, shell form for Docker), and a file without a final
newline (a MISSING node). Docker's line reader is small, so it is followed here directly.
"""

from __future__ import annotations

import json
import posixpath
import re
from dataclasses import dataclass, field, replace
from fnmatch import fnmatchcase
from typing import Callable

from ..edits import Sequence, remove
from ..fixes import apply_edits
from ..model import UNKNOWN, Edit, Fix, Launch, LaunchKind, Setting, Span, VersionHint
from ..vllm.argv import ConfigLoader, Token
from ..vllm.images import is_vllm_image, release_from_image, release_from_pin
from ..vllm.releases import Release
from .. import command
from ..source import ExtractContext, ParseError, SourceFile
from ..command import CommandHandle, EnvPlace, WordSyntax
from ..launchers import split_launcher
from ..frameworks.commands import command_launch

try:
    from ..words.shell import extract_script
    from ..words.shell import render as _render
except ImportError:  # the shell frontend is optional: shell-form commands are then skipped
    extract_script = None
    _render = command.render

try:
    from ..words.vllm_config import config_render, load_config_tokens
except ImportError:  # without the YAML frontend a `--config FILE` stays unread (open-ended)
    config_render = load_config_tokens = None

_DIRECTIVE = re.compile(r"#\s*([a-zA-Z][a-zA-Z0-9]*)\s*=\s*(.+?)\s*$")
_DIRECTIVES = ("syntax", "escape", "check")
_KEYWORD = re.compile(r"[^\t\v\f\r ]+")
_HEREDOC_WORD = re.compile(r"^(\d*)<<(-?)([^<]*)$")
_HEREDOC_KEYWORDS = ("RUN", "COPY", "ADD")
_JSON_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_SHELLS = ("sh", "bash", "dash", "ash", "zsh", "ksh")
_SHELL_COMMAND_OPTION = re.compile(r"^-[a-z]*c[a-z]*$")
_INIT_WRAPPERS = ("tini", "tini-static", "dumb-init")
_PIP_INSTALL = re.compile(r"(?:^|[\s;&|(])(?:uv\s+pip|pip3?(?:\.\d+)?|python3?(?:\.\d+)?\s+-m\s+pip)\s+install\b(?P<args>[^;&|\n]*)")
_PIP_WORD = re.compile(r"""(?:(?<=\s)|^)(['"]?)(vllm(?:\[[^\]\s]*\])?==[^\s'";&|]+)\1""")
_SIMPLE_VALUE = re.compile(r"[A-Za-z0-9_./:@%+,=-]+")
# What an expansion yields for a part that cannot be known; the value is then unknown.
_UNKNOWN_PART = "\x00"
_VLLM_SERVE = ("vllm", "serve")


def _continuation(escape: str) -> re.Pattern[str]:
    """buildkit: the escape character, not itself escaped, then only blanks, ends the line."""
    quoted = re.escape(escape)
    return re.compile(rf"(?<!{quoted}){quoted}[ \t]*$")


# -- reading: Docker's line reader -------------------------------------------------------------


@dataclass(frozen=True)
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


@dataclass(frozen=True)
class Heredoc:
    name: str
    chomp: bool
    body: Logical
    terminator: Logical


@dataclass(frozen=True)
class Instruction:
    keyword: str
    start: int
    end: int  # just after the last character of its last line (heredoc terminators included)
    args: Logical
    heredocs: tuple[Heredoc, ...] = ()


@dataclass(frozen=True)
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
        match = _KEYWORD.match(logical.text)
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
        inner = _KEYWORD.match(args.text)
        return inner is not None and _may_hold_heredocs(inner.group().upper(), args.slice(inner.end()).strip())
    return keyword in _HEREDOC_KEYWORDS and not _is_json_array(_without_flags(args)[1].text)


def _heredoc_names(text: str) -> list[tuple[str, bool]]:
    """buildkit's heredocsFromLine: every word `[n]<<[-]NAME`, NAME without its quotes."""
    names = []
    for start, end in _word_bounds(text, "\\"):
        match = _HEREDOC_WORD.match(text[start:end])
        if match and match.group(3):
            names.append((_unquoted(match.group(3)), match.group(2) == "-"))
    return names


def _unquoted(word: str) -> str:
    return re.sub(r"\\(.)", r"\1", word.replace('"', "").replace("'", ""))


def read_dockerfile(text: str) -> Dockerfile:
    return _Reader(text).read()


def parses(text: str) -> bool:
    try:
        read_dockerfile(text)
    except ParseError:
        return False
    return True


# -- words, flags, exec form ---------------------------------------------------------------------


def _word_bounds(text: str, escape: str) -> list[tuple[int, int]]:
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


def _without_flags(args: Logical) -> tuple[list[str], Logical]:
    """Docker's own leading `--flag[=value]` words, and the rest of the arguments."""
    flags = []
    for start, end in _word_bounds(args.text, "\\"):
        word = args.text[start:end]
        if not word.startswith("--"):
            return flags, args.slice(start)
        if word == "--":
            return flags, args.slice(end).strip()
        flags.append(word)
    return flags, args.slice(len(args.text))


def _is_json_array(text: str) -> bool:
    if not text.lstrip().startswith("["):
        return False
    try:
        return isinstance(json.loads(text), list)
    except (ValueError, RecursionError):
        return False


@dataclass(frozen=True)
class Word:
    """One exec-form word: its value, its text as written, its source offsets (quotes included)."""

    text: str
    raw: str
    start: int
    end: int
    literal: Logical | None = None


@dataclass(frozen=True)
class ExecForm:
    words: tuple[Word, ...]
    close: int


def _exec_form(rest: Logical, line: int) -> ExecForm | None:
    """The JSON array of an exec-form instruction, or None for shell form."""
    if not _is_json_array(rest.text):
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


def _json_characters(literal: Logical) -> Logical:
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


# -- values: Docker's word expansion ---------------------------------------------------------------

Lookup = Callable[[str], "str | None"]


class _Expander:
    """buildkit's shell lexer `ProcessWord`: quotes removed, escapes applied, `$V` substituted.

    `lookup` returns None for a variable whose value cannot be known; its part becomes
    `_UNKNOWN_PART`. Modifiers other than `-`, `+`, `?` (with or without `:`) are unknown too.
    """

    def __init__(self, text: str, escape: str, lookup: Lookup) -> None:
        self.text = text
        self.escape = escape
        self.lookup = lookup
        self.index = 0

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
            return _UNKNOWN_PART
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
        return _UNKNOWN_PART

    def _dollar(self) -> str:
        self.index += 1
        if self.text.startswith("{", self.index):
            return self._braced()
        name = _NAME.match(self.text, self.index)
        if name is None:
            if self.index < len(self.text) and (self.text[self.index].isdigit() or self.text[self.index] in "@*#?$!-"):
                self.index += 1
                return _UNKNOWN_PART
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
        return _modified(self.lookup(name.group()), colon, operator, alternative)

    def _skip_braces(self) -> str:
        depth = 1
        while self.index < len(self.text) and depth:
            depth += {"{": 1, "}": -1}.get(self.text[self.index], 0)
            self.index += 1
        return _UNKNOWN_PART

    def _value(self, name: str) -> str:
        value = self.lookup(name)
        return _UNKNOWN_PART if value is None else value


def _modified(value: str | None, colon: bool, operator: str, alternative: str) -> str:
    if value is None or _UNKNOWN_PART in value:
        return _UNKNOWN_PART
    present = bool(value) if colon else True
    if operator == "-":
        return value if present else alternative
    if operator == "+":
        return alternative if present else ""
    return value if present else _UNKNOWN_PART


def expand(text: str, escape: str, lookup: Lookup) -> str:
    """A word as Docker substitutes it; unknown parts are `_UNKNOWN_PART`."""
    return _Expander(text, escape, lookup).word()


# -- assignments: ENV and ARG ----------------------------------------------------------------------


@dataclass(frozen=True)
class Pair:
    """`NAME=value` (or legacy `ENV NAME value`): the raw value and source ranges."""

    name: str
    value: str | None  # raw text, None for `ARG NAME` without default
    start: int
    end: int
    value_start: int
    value_end: int
    raw: str


def _pairs(instruction: Instruction, escape: str) -> list[Pair]:
    """ENV (`parseNameVal`) and ARG (`parseNameOrNameVal`); [] for what Docker rejects."""
    args = instruction.args
    bounds = _word_bounds(args.text, escape)
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
    name = _KEYWORD.match(args.text)
    assert name is not None
    rest = args.slice(name.end()).strip()
    if not rest.text:
        return []
    start, end = args.source_range(0, len(args.text))
    value_start, value_end = rest.source_range(0, len(rest.text))
    return [Pair(name.group(), rest.text, start, end, value_start, value_end, args.text)]


# -- stages ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Variable:
    """An ENV or ARG value as a launch sees it: None when it cannot be known."""

    value: str | None
    setting: Setting
    place: EnvPlace


@dataclass(frozen=True)
class Command:
    """A CMD or ENTRYPOINT: exec-form words or shell-form text."""

    instruction: Instruction
    exec_form: ExecForm | None
    script: Logical | None


@dataclass(frozen=True)
class ImageEntrypoint:
    """The entrypoint a base image brings: its words, or None when we cannot know them."""

    words: tuple[str, ...] | None


_SERVE_IMAGE = ImageEntrypoint(_VLLM_SERVE)
_UNKNOWN_IMAGE = ImageEntrypoint(None)
_NO_ENTRYPOINT = ImageEntrypoint(())
Entrypoint = Command | ImageEntrypoint


@dataclass
class Stage:
    name: str | None
    entrypoint: Entrypoint
    cmd: Command | None = None
    cmd_set: bool = False
    env: dict[str, Variable] = field(default_factory=dict)
    args: dict[str, Variable] = field(default_factory=dict)
    env_open: bool = False
    shell: tuple[str, ...] = ("/bin/sh", "-c")
    hint: VersionHint | None = None
    built_on: bool = False
    workdir: str | None = "/"
    copies: tuple[Copy, ...] = ()
    image: str | None = None  # the FROM image (not a stage)

    def child(self, name: str | None) -> Stage:
        return replace(self, name=name, cmd_set=False, env=dict(self.env), args={}, built_on=False)

    def lookup(self) -> Lookup:
        """Values for substitution: ENV wins over an ARG of the same name."""

        def find(name: str) -> str | None:
            variable = self.env.get(name) or self.args.get(name)
            return None if variable is None else variable.value

        return find


@dataclass(frozen=True)
class Copy:
    """`COPY SRC... DEST` from the build context: where its files land in the image."""

    sources: tuple[str, ...]
    destination: str
    into_directory: bool

    def candidates(self, target: str) -> list[str]:
        """Build-context paths that may hold the image file `target`: a file copied to DEST
        or into the directory DEST, or a file inside a directory whose contents went to DEST."""
        found = []
        prefix = self.destination if self.destination.endswith("/") else self.destination + "/"
        for source in self.sources:
            name = posixpath.basename(source.rstrip("/"))
            if self.into_directory and posixpath.dirname(target) == self.destination and fnmatchcase(posixpath.basename(target), name):
                found.append(posixpath.join(posixpath.dirname(source), posixpath.basename(target)))
            elif not self.into_directory and target == self.destination:
                found.append(source)
            if target.startswith(prefix):
                found.append(posixpath.join(source, target[len(prefix) :]))
        return found


def _json_quote(word: str) -> str:
    return json.dumps(word)


def _json_escape(text: str) -> str:
    return json.dumps(text)[1:-1]


def _docker_quoter(escape: str) -> Callable[[str], str]:
    def quote(value: str) -> str:
        if _SIMPLE_VALUE.fullmatch(value):
            return value
        body = value.replace(escape, escape + escape).replace('"', escape + '"').replace("$", escape + "$")
        return f'"{body}"'

    return quote


class _Extractor:
    def __init__(self, source: SourceFile, context: ExtractContext, dockerfile: Dockerfile) -> None:
        self.source = source
        self.context = context
        self.escape = dockerfile.escape
        self.instructions = dockerfile.instructions
        self.global_args: dict[str, Variable] = {}
        self.stages: list[Stage] = []
        self.named: dict[str, Stage] = {}  # the last stage of each name (`FROM base AS name`)
        self.launches: list[Launch] = []
        self.commands = _StageLaunches(source, context, dockerfile.escape)

    def run(self) -> list[Launch]:
        handlers = {
            "FROM": self._from,
            "ARG": self._arg,
            "ENV": self._env,
            "CMD": self._cmd,
            "ENTRYPOINT": self._entrypoint,
            "SHELL": self._shell,
            "RUN": self._run,
            "WORKDIR": self._workdir,
            "COPY": self._copy,
            "ADD": self._copy,
        }
        for instruction in self.instructions:
            handler = handlers.get(instruction.keyword)
            if handler is not None and (self.stages or instruction.keyword in ("FROM", "ARG")):
                handler(instruction)
        for stage in self.stages:
            if not stage.built_on:
                self.launches.extend(self.commands.stage_launches(stage))
        return sorted(self.launches, key=lambda launch: launch.span.start)

    @property
    def stage(self) -> Stage:
        return self.stages[-1]

    def _global(self, name: str) -> str | None:
        variable = self.global_args.get(name)
        return None if variable is None else variable.value

    def _line(self, instruction: Instruction) -> int:
        return self.source.index.position(instruction.start)[0]

    # FROM

    def _from(self, instruction: Instruction) -> None:
        _, rest = _without_flags(instruction.args)
        words = rest.text.split()
        if not words:
            return
        name = words[2].lower() if len(words) >= 3 and words[1].lower() == "as" else None
        image = expand(words[0], self.escape, self._global)
        base = self.named.get(image.lower())
        if base is not None:
            base.built_on = True
            self.stages.append(base.child(name))
        else:
            start = rest.offset(0)
            self.stages.append(self._image_stage(name, image, self.source.index.span(start, start + len(words[0]))))
        if name is not None:
            self.named[name] = self.stages[-1]

    def _image_stage(self, name: str | None, image: str, span: Span) -> Stage:
        if image == "scratch":
            return Stage(name, _NO_ENTRYPOINT)
        repository = _repository(image)
        if repository is not None and is_vllm_image(repository):
            stage = Stage(name, _SERVE_IMAGE)
        else:
            stage = Stage(name, _UNKNOWN_IMAGE, env_open=True)
        release = release_from_image(image) if _UNKNOWN_PART not in image else None
        if release is not None:
            stage.hint = VersionHint((str(release),), f"image {image}", span)
        stage.image = image
        return stage

    # ARG, ENV

    def _arg(self, instruction: Instruction) -> None:
        scope = self.stage.args if self.stages else self.global_args
        lookup = self.stage.lookup() if self.stages else self._global
        pairs = _pairs(instruction, self.escape)
        for position, pair in enumerate(pairs):
            if pair.value is None:
                value = self._global(pair.name) if self.stages else None
            else:
                value = expand(pair.value, self.escape, lookup)
            scope[pair.name] = self._variable(instruction, pairs, position, value)

    def _env(self, instruction: Instruction) -> None:
        lookup = self.stage.lookup()
        pairs = _pairs(instruction, self.escape)
        values = [expand(pair.value or "", self.escape, lookup) for pair in pairs]
        for position, (pair, value) in enumerate(zip(pairs, values)):
            self.stage.env[pair.name] = self._variable(instruction, pairs, position, value)

    def _variable(self, instruction: Instruction, pairs: list[Pair], position: int, value: str | None) -> Variable:
        index = self.source.index
        pair = pairs[position]
        known = None if value is None or _UNKNOWN_PART in value else value
        value_span = index.span(pair.value_start, pair.value_end) if pair.value is not None else None
        setting = Setting(pair.name, UNKNOWN if known is None else known, index.span(pair.start, pair.end), pair.raw, value_span)
        place = EnvPlace(self._pair_removal(instruction, pairs, position), value_span, _docker_quoter(self.escape))
        return Variable(known, setting, place)

    def _pair_removal(self, instruction: Instruction, pairs: list[Pair], position: int) -> Span:
        """One pair of several goes with one separator; the only pair takes its instruction."""
        if len(pairs) == 1:
            return self._instruction_lines(instruction)
        sequence = Sequence(tuple((pair.start, pair.end) for pair in pairs), separator=" ")
        return remove(self.source.index, sequence, {position})[0].span

    def _instruction_lines(self, instruction: Instruction) -> Span:
        text = self.source.text
        start = text.rfind("\n", 0, instruction.start) + 1
        newline = text.find("\n", instruction.end)
        return self.source.index.span(start, len(text) if newline == -1 else newline + 1)

    # CMD, ENTRYPOINT, SHELL

    def _command(self, instruction: Instruction) -> Command:
        flags, rest = _without_flags(instruction.args)
        if flags:
            name = flags[0][2:].partition("=")[0]
            col = self.source.index.position(instruction.start)[1]
            raise ParseError(
                f"{instruction.keyword}: unknown flag: {name} (Docker reads the leading `--` words of an instruction as its own "
                f'flags; write the arguments in exec form, {instruction.keyword} ["{flags[0]}", ...])',
                self._line(instruction),
                col,
            )
        exec_form = _exec_form(rest, self._line(instruction))
        return Command(instruction, exec_form, None if exec_form is not None else rest)

    def _cmd(self, instruction: Instruction) -> None:
        self.stage.cmd = self._command(instruction)
        self.stage.cmd_set = True

    def _entrypoint(self, instruction: Instruction) -> None:
        command_ = self._command(instruction)
        if command_.exec_form is not None and not command_.exec_form.words:
            self.stage.entrypoint = _NO_ENTRYPOINT
        else:
            self.stage.entrypoint = command_
        if not self.stage.cmd_set:
            self.stage.cmd = None

    def _shell(self, instruction: Instruction) -> None:
        exec_form = _exec_form(instruction.args, self._line(instruction))
        if exec_form is not None and exec_form.words:
            self.stage.shell = tuple(word.text for word in exec_form.words)

    # WORKDIR, COPY, ADD: where a `--config FILE` of the command comes from

    def _workdir(self, instruction: Instruction) -> None:
        path = expand(instruction.args.text, self.escape, self.stage.lookup())
        current = self.stage.workdir
        if _UNKNOWN_PART in path or current is None:
            self.stage.workdir = None
        else:
            self.stage.workdir = posixpath.normpath(posixpath.join(current, path))

    def _copy(self, instruction: Instruction) -> None:
        flags, rest = _without_flags(instruction.args)
        if instruction.heredocs or any(flag.startswith("--from") for flag in flags):
            return
        exec_form = _exec_form(rest, self._line(instruction))
        raw = [word.text for word in exec_form.words] if exec_form is not None else rest.text.split()
        words = [expand(word, self.escape, self.stage.lookup()) for word in raw]
        if len(words) < 2 or any(_UNKNOWN_PART in word for word in words):
            return
        *sources, destination = words
        if not destination.startswith("/"):
            if self.stage.workdir is None:
                return
            destination = posixpath.join(self.stage.workdir, destination)
        into_directory = destination.endswith("/") or len(sources) > 1
        local = tuple(source for source in sources if "://" not in source)
        self.stage.copies = (*self.stage.copies, Copy(local, posixpath.normpath(destination), into_directory))

    # RUN

    def _run(self, instruction: Instruction) -> None:
        _, rest = _without_flags(instruction.args)
        exec_form = _exec_form(rest, self._line(instruction))
        if exec_form is not None:
            self.launches.extend(self.commands.exec_launches(self.stage, [_Container.of(exec_form)], instruction, with_args=True))
            return
        script = _run_script(rest, instruction.heredocs)
        if script is None:
            return
        self._note_pins(script)
        self.launches.extend(self.commands.script_launches(self.stage, script, with_args=True))

    def _note_pins(self, script: Logical) -> None:
        lookup = self.stage.lookup()
        for install in _PIP_INSTALL.finditer(script.text):
            for pin in _PIP_WORD.finditer(script.text, install.start("args"), install.end("args")):
                requirement = expand(pin.group(2), self.escape, lookup)
                release = release_from_pin(requirement) if _UNKNOWN_PART not in requirement else None
                if release is not None:
                    span = self.source.index.span(*script.source_range(*pin.span(2)))
                    self.stage.hint = VersionHint((str(release),), f"pip install {requirement}", span)


class _StageLaunches:
    """The launches of a stage's commands: exec-form words go to `split_launcher` and the
    command-line dispatch, shell scripts to the shell interpreter, SageMaker entrypoints to
    `frameworks.sagemaker`."""

    def __init__(self, source: SourceFile, context: ExtractContext, escape: str) -> None:
        self.source = source
        self.context = context
        self.escape = escape

    def _config_loader(self, stage: Stage) -> ConfigLoader | None:
        """`--config PATH` names a file of the image: the latest COPY that put a file there
        says which file of the build context it is (next to the Dockerfile or at the root)."""
        if load_config_tokens is None:
            return None

        def load(path_text: str, token: Token) -> list[Token] | None:
            if stage.workdir is None and not path_text.startswith("/"):
                return None
            target = posixpath.normpath(posixpath.join(stage.workdir or "/", path_text))
            for copy in reversed(stage.copies):
                candidates = copy.candidates(target)
                if candidates:
                    loaded = (load_config_tokens(c, token, self.context, self.source.path) for c in candidates)
                    return next((tokens for tokens in loaded if tokens is not None), None)
            return None

        return load

    def stage_launches(self, stage: Stage) -> list[Launch]:
        entrypoint, cmd = stage.entrypoint, stage.cmd
        sagemaker = self._sagemaker(stage)
        if sagemaker is not None:
            return sagemaker
        if isinstance(entrypoint, Command):
            if entrypoint.exec_form is None:
                # A shell-form ENTRYPOINT runs its text with `sh -c`; the CMD is never seen.
                return self.script_launches(stage, entrypoint.script, with_args=False)
            return self._with_cmd(stage, [_Container.of(entrypoint.exec_form)], entrypoint.instruction, cmd)
        if entrypoint.words is None:
            return self._unknown_entrypoint(stage, cmd)
        if cmd is None:
            return []
        image = [_Container(tuple(Word(text, text, -1, -1) for text in entrypoint.words), None)]
        return self._with_cmd(stage, image if entrypoint.words else [], cmd.instruction, cmd)

    def _sagemaker(self, stage: Stage) -> list[Launch] | None:
        """A SageMaker entrypoint (a script it names, or a SageMaker image's own) that turns the
        `SM_VLLM_*` variables into `vllm serve` flags (`frameworks.sagemaker`)."""
        from ..frameworks import sagemaker

        entrypoint = stage.entrypoint
        program = None
        if isinstance(entrypoint, Command):
            if entrypoint.exec_form is not None:
                program = entrypoint.exec_form.words[0].text if entrypoint.exec_form.words else None
            elif entrypoint.script is not None and entrypoint.script.text.split():
                program = entrypoint.script.text.split()[0]
        variant = sagemaker.variant_for(None if isinstance(entrypoint, Command) else stage.image, program)
        if variant is None:
            return None
        env, _ = _environment(stage, with_args=False)
        if isinstance(entrypoint, Command):
            anchor = self.source.index.span(entrypoint.instruction.start, entrypoint.instruction.end)
        else:
            first = next((setting for name, setting in env.items() if name.startswith(sagemaker.PREFIX)), None)
            if first is None:
                return None
            anchor = first.span
        launch = sagemaker.launch(env, variant, anchor, "Dockerfile", stage.hint, ("ENV the base image sets",) if stage.env_open else ())
        return [] if launch is None else [launch]

    def _with_cmd(self, stage: Stage, containers: list[_Container], instruction: Instruction, cmd: Command | None) -> list[Launch]:
        """An exec-form entrypoint (written or the image's) with the CMD appended."""
        if cmd is not None and cmd.exec_form is None:
            if containers:
                # An exec entrypoint receives a shell-form CMD as the words `/bin/sh -c "..."`:
                # `vllm serve /bin/sh -c ...` starts nothing anyone meant.
                return []
            return self.script_launches(stage, cmd.script, with_args=False)
        if cmd is not None and cmd.exec_form is not None:
            containers = [*containers, _Container.of(cmd.exec_form)]
            instruction = cmd.instruction
        return self.exec_launches(stage, containers, instruction, with_args=False)

    def _unknown_entrypoint(self, stage: Stage, cmd: Command | None) -> list[Launch]:
        """A base image whose entrypoint we do not know. A CMD that names the launcher is taken
        as the command (such images run a wrapper that execs its arguments, or nothing); a CMD
        of flags alone is not guessed at: split_launcher finds no launcher in it."""
        if cmd is None:
            return []
        if cmd.exec_form is None:
            return self.script_launches(stage, cmd.script, with_args=False)
        return self.exec_launches(stage, [_Container.of(cmd.exec_form)], cmd.instruction, with_args=False)

    def exec_launches(self, stage: Stage, containers: list[_Container], instruction: Instruction, with_args: bool) -> list[Launch]:
        words = [word for container in containers for word in container.words]
        groups = [number for number, container in enumerate(containers) for _ in container.words]
        texts = [word.text for word in words]
        skipped = _init_wrapper_length(texts)
        if _is_shell_command(texts[skipped:]):
            return self._embedded_script_launches(stage, words[skipped + 2], with_args)
        found = split_launcher(texts[skipped:])
        if found is None:
            return []
        entrypoint, after = found
        first = skipped + after
        arguments = words[first:]
        if not arguments:
            return []
        used = sorted(set(groups[first:]))
        elements = Sequence(
            tuple((word.start, word.end) for word in arguments),
            separator=",",
            groups=tuple(used.index(group) for group in groups[first:]),
            closes=tuple(containers[group].close for group in used),
        )
        index = self.source.index
        tokens = [Token(word.text, index.span(word.start, word.end), word.raw) for word in arguments]
        env, places = _environment(stage, with_args)
        launch = command_launch(
            LaunchKind.DOCKERFILE,
            index.span(instruction.start, instruction.end),
            tokens,
            elements,
            WordSyntax(_json_quote, separator=",", continuation=f" {self.escape}"),
            env=env,
            env_places=places,
            release=_release(stage.hint),
            load_config=self._config_loader(stage),
            entrypoint=entrypoint,
            version_hint=stage.hint,
            label=instruction.keyword,
        )
        if launch is None:
            return []
        if isinstance(launch.handle, CommandHandle):
            launch.handle.config_render = config_render
        return [replace(launch, env_open=stage.env_open)]

    def script_launches(self, stage: Stage, script: Logical | None, with_args: bool, escape: Callable[[str], str] | None = None) -> list[Launch]:
        if extract_script is None or script is None or not script.text.strip() or not _is_posix_shell(stage.shell):
            return []
        env, places = _environment(stage, with_args)
        launches = extract_script(
            script.text,
            self.source,
            self.context,
            to_offset=script.offset,
            env=env,
            env_places=places,
            version_hint=stage.hint,
            kind=LaunchKind.DOCKERFILE,
            escape=escape,
        )
        return [replace(launch, env_open=launch.env_open or stage.env_open) for launch in launches]

    def _embedded_script_launches(self, stage: Stage, word: Word, with_args: bool) -> list[Launch]:
        """`["/bin/sh", "-c", "vllm serve ..."]`: the JSON string is a shell script."""
        if word.literal is None:
            return []
        return self.script_launches(stage, _json_characters(word.literal), with_args, escape=_json_escape)

@dataclass(frozen=True)
class _Container:
    """The words of one JSON array (or of the image's entrypoint), and where it closes."""

    words: tuple[Word, ...]
    close: int | None

    @classmethod
    def of(cls, exec_form: ExecForm) -> _Container:
        return cls(exec_form.words, exec_form.close)


def _repository(image: str) -> str | None:
    """The image name without tag or digest, when the name itself is known."""
    name = image.split("@", 1)[0]
    slash = name.rfind("/")
    colon = name.rfind(":")
    if colon > slash:
        name = name[:colon]
    return None if _UNKNOWN_PART in name else name


def _init_wrapper_length(words: list[str]) -> int:
    """`tini --`, `dumb-init` in front of the real command."""
    if not words or words[0].rstrip("/").rsplit("/", 1)[-1] not in _INIT_WRAPPERS:
        return 0
    position = 1
    while position < len(words) and words[position].startswith("-"):
        position += 1
        if words[position - 1] == "--":
            break
    return position


def _is_shell_command(words: list[str]) -> bool:
    """`sh -c SCRIPT ...` (also `bash -lc`, `sh -ec`)."""
    return len(words) >= 3 and words[0].rsplit("/", 1)[-1] in _SHELLS and _SHELL_COMMAND_OPTION.match(words[1]) is not None


def _is_posix_shell(shell: tuple[str, ...]) -> bool:
    return bool(shell) and shell[0].rsplit("/", 1)[-1] in _SHELLS


def _run_script(rest: Logical, heredocs: tuple[Heredoc, ...]) -> Logical | None:
    """The text `RUN` gives the shell: the line, or a lone heredoc's body as the script."""
    if not heredocs:
        return rest
    if len(heredocs) == 1 and _HEREDOC_WORD.match(rest.text.strip()):
        body = heredocs[0].body
        first_line = body.text.split("\n", 1)[0]
        if first_line.startswith("#!") and not any(first_line.rstrip().endswith(shell) for shell in _SHELLS):
            return None
        return body
    pieces = [rest, *(part for heredoc in heredocs for part in (_newline(heredoc.body), heredoc.body, heredoc.terminator))]
    return _concat(pieces)


def _newline(body: Logical) -> Logical:
    """The line break before a heredoc body (Docker joins the instruction's lines first)."""
    return Logical("\n", (body.offset(0),), body.offset(0))


def _concat(parts: list[Logical]) -> Logical:
    return Logical("".join(part.text for part in parts), tuple(o for part in parts for o in part.offsets), parts[-1].end)


def _environment(stage: Stage, with_args: bool) -> tuple[dict[str, Setting], dict[str, EnvPlace]]:
    variables = {**(stage.args if with_args else {}), **stage.env}
    settings = {name: variable.setting for name, variable in variables.items()}
    places = {name: variable.place for name, variable in variables.items()}
    return settings, places


def _release(hint: VersionHint | None) -> Release | None:
    return Release.parse(hint.releases[-1]) if hint is not None and hint.releases else None


def extract(source: SourceFile, context: ExtractContext) -> list[Launch]:
    dockerfile = read_dockerfile(source.text)
    return _Extractor(source, context, dockerfile).run()


# -- fixes -----------------------------------------------------------------------------------------


def render(launch: Launch, fix: Fix, source: SourceFile) -> list[Edit] | None:
    """The shell frontend's rendering (it is `command.render` for exec-form launches), kept
    only when the file still holds the same instructions afterwards."""
    edits = _render(launch, fix, source)
    if not edits:
        return edits
    local = [edit for edit in edits if edit.span.path == source.path]
    return edits if not local or _keeps_instructions(source.text, local) else None


def _shape(instructions: tuple[Instruction, ...]) -> list[tuple[str, bool]]:
    return [(instruction.keyword, _is_json_array(_without_flags(instruction.args)[1].text)) for instruction in instructions]


def _keeps_instructions(text: str, edits: list[Edit]) -> bool:
    """A fix leaves the instructions it does not delete, in the same forms (a lost line
    continuation would split one instruction into two)."""
    before = read_dockerfile(text).instructions
    deleted = [e.span for e in edits if not e.content]
    kept = tuple(i for i in before if not any(span.start <= i.start and i.end <= span.end for span in deleted))
    fixed, _ = apply_edits(text, edits)
    try:
        return _shape(read_dockerfile(fixed).instructions) == _shape(kept)
    except ParseError:
        return False

"""Words of a command in YAML: list items, shell-like strings, variable references.

A command is written in YAML either as a sequence of scalars (`args: ["--a", "b"]`, or a
block sequence of `- item` lines), one word per item, or as a string split into words
(docker-compose `command: vllm serve m --flag`, split like a shell would but without one).
Each word keeps the `Place` it was written at, so fixes can be written back in the same
container and style: `Container` knows how to write, insert and remove words there.

Substitutions: Kubernetes expands `$(VAR)` in `command`/`args` from the container's `env`
(`$$` is a literal `$`); docker-compose interpolates `${VAR}`/`$VAR` from `.env` and the
shell (`$$` is a literal `$`), which we cannot see, so those become unknown.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator, Mapping

import yaml
from yaml.nodes import Node, ScalarNode, SequenceNode

from ..edits import Sequence, insert_after, remove
from ..model import Edit, LineIndex
from ..vllm.argv import Token
from .yaml_nodes import HOLE, STR, content_end, dash_of, line_end, line_start, next_line
from .yaml_text import Text, scalar_text

_PLAIN_CACHE: dict[tuple[str, bool], bool] = {}
_Loader = getattr(yaml, "CSafeLoader", None) or yaml.SafeLoader


def plain_safe(value: str, flow: bool) -> bool:
    """Whether `value` can be written as a plain scalar and read back as the same string."""
    key = (value, flow)
    cached = _PLAIN_CACHE.get(key)
    if cached is not None:
        return cached
    ok = False
    if value and value == value.strip() and "\n" not in value and HOLE not in value:
        document = f"[{value}]" if flow else f"- {value}"
        try:
            node = yaml.compose(document, Loader=_Loader)
        except yaml.YAMLError:
            node = None
        ok = (
            isinstance(node, SequenceNode)
            and len(node.value) == 1
            and isinstance(node.value[0], ScalarNode)
            and node.value[0].tag == STR
            and not node.value[0].style
            and node.value[0].value == value
        )
    if len(_PLAIN_CACHE) < 4096:
        _PLAIN_CACHE[key] = ok
    return ok


def double_quoted(value: str) -> str:
    out = []
    for char in value:
        if char == '"':
            out.append('\\"')
        elif char == "\\":
            out.append("\\\\")
        elif char == "\n":
            out.append("\\n")
        elif char == "\t":
            out.append("\\t")
        elif ord(char) < 0x20 or char == "\x7f":
            out.append(f"\\x{ord(char):02x}")
        else:
            out.append(char)
    return '"' + "".join(out) + '"'


def single_quoted(value: str) -> str:
    return "'" + value.replace("'", "''") + "'"


def scalar(value: str, style: str, flow: bool) -> str:
    """A YAML scalar for the string `value`: in `style` (`"`, `'`, or plain when that reads
    back as the same string, else double quotes)."""
    if style == "'" and "\n" not in value:
        return single_quoted(value)
    if style == '"':
        return double_quoted(value)
    if plain_safe(value, flow):
        return value
    return double_quoted(value)


def escape_in_scalar(content: str, style: str) -> str | None:
    """Text to put *inside* an existing scalar of `style`; None when it cannot go there."""
    if style == '"':
        return content.replace("\\", "\\\\").replace('"', '\\"') if "\n" not in content else None
    if style == "'":
        return content.replace("'", "''") if "\n" not in content else None
    if style == "|":
        return content
    if "\n" in content:
        return None
    if style == ">":
        return content
    # plain
    if ": " in content or " #" in content or content.endswith(":") or "\t" in content:
        return None
    return content


# -- substitutions ---------------------------------------------------------------------------------

_K8S_REFERENCE = re.compile(r"\$(\$|\(([^()\s]*)\))")
_COMPOSE_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_PLAIN_RUN = re.compile(r"[^ \t\n\r'\"\\]+")  # characters `split` copies as they are
_QUOTED_RUN = re.compile(r'[^"\\]+')


def k8s_expand(text: Text, env: Mapping[str, Any] | None, keep_unknown: bool = False) -> Text:
    """Kubernetes `$(VAR)` expansion (kubelet's expansion.go): known values are substituted,
    `$$` is one `$`, an unknown or undefined variable becomes a hole (or stays as written
    with `keep_unknown`, for shell scripts, where the shell then sees `$(VAR)`)."""
    if "$" not in text.value:
        return text
    parts: list[Text] = []
    cursor = 0
    for match in _K8S_REFERENCE.finditer(text.value):
        parts.append(text.slice(cursor, match.start()))
        cursor = match.end()
        a, b = text.region(match.start(), match.end())
        if match.group(1) == "$":
            parts.append(Text.filled("$", a, b, text.exact))
            continue
        name = match.group(2)
        value = None if env is None else env.get(name, None)
        if isinstance(value, str) and HOLE not in value:
            parts.append(Text.filled(value, a, b, text.exact))
        elif keep_unknown:
            parts.append(text.slice(match.start(), match.end()))
        else:
            parts.append(Text.filled(HOLE, a, b, text.exact))
    parts.append(text.slice(cursor, len(text)))
    return Text.join(parts)


def _compose_references(value: str) -> Iterator[tuple[int, int, str]]:
    r"""(start, end, what follows the `$`) of each `$$`, `${...}` (to the first `}`) and `$NAME`:
    the regex `\$(\$|\{[^}]*\}|NAME)`, in one pass (from every `${` it searched the rest of the
    value for a `}`: 4.5 s for 100 KB of `${`)."""
    close = -2  # the first `}` after the last `${` (-1: there is none)
    at = value.find("$")
    while at != -1:
        end = -1
        following = value[at + 1 : at + 2]
        if following == "$":
            end = at + 2
        elif following == "{":
            if close != -1 and close < at + 2:
                close = value.find("}", at + 2)
            end = close + 1 if close != -1 else -1
        else:
            name = _COMPOSE_NAME.match(value, at + 1)
            end = name.end() if name else -1
        if end == -1:
            at = value.find("$", at + 1)
        else:
            yield at, end, value[at + 1 : end]
            at = value.find("$", end)


def compose_interpolate(text: Text, keep_unknown: bool = False) -> Text:
    """docker-compose interpolation: every `${VAR}` / `$VAR` comes from the shell or `.env`,
    which we do not see (a default `${VAR:-x}` is only used when VAR is unset): a hole, or
    (`keep_unknown`, for shell scripts) the reference as written."""
    if "$" not in text.value:
        return text
    parts: list[Text] = []
    cursor = 0
    for start, end, reference in _compose_references(text.value):
        parts.append(text.slice(cursor, start))
        cursor = end
        a, b = text.region(start, end)
        if reference == "$":
            parts.append(Text.filled("$", a, b, text.exact))
        elif keep_unknown:
            parts.append(text.slice(start, end))
        else:
            parts.append(Text.filled(HOLE, a, b, text.exact))
    parts.append(text.slice(cursor, len(text)))
    return Text.join(parts)


def templated(value: str) -> bool:
    """A Helm/Go or KServe template placeholder (`{{ .Values.x }}`, `{{.Name}}`)."""
    return "{{" in value


# -- splitting strings into words ---------------------------------------------------------------


@dataclass(frozen=True)
class SplitWord:
    text: Text  # the word after quote removal
    region: tuple[int, int]  # its source offsets, quotes included
    spread: bool  # an unquoted unknown part: any number of words


def split(text: Text) -> list[SplitWord] | None:
    """Shell-like word splitting without a shell (compose's `command`/`entrypoint` strings):
    blanks separate words, quotes group, a backslash escapes. None when a quote is unclosed."""
    value = text.value
    words: list[SplitWord] = []
    i = 0
    n = len(value)
    while i < n:
        while i < n and value[i] in " \t\n\r":
            i += 1
        if i >= n:
            break
        start = i
        parts: list[Text] = []
        spread = False
        while i < n and value[i] not in " \t\n\r":
            char = value[i]
            if char == "'":
                close = value.find("'", i + 1)
                if close == -1:
                    return None
                parts.append(text.slice(i + 1, close))
                i = close + 1
            elif char == '"':
                j = i + 1
                while j < n and value[j] != '"':
                    if value[j] == "\\" and j + 1 < n and value[j + 1] in '"\\$`\n':
                        if value[j + 1] != "\n":
                            parts.append(text.slice(j + 1, j + 2))
                        j += 2
                        continue
                    run = _QUOTED_RUN.match(value, j)  # a slice per character cost 10 s per MB
                    k = run.end() if run else j + 1
                    parts.append(text.slice(j, k))
                    j = k
                if j >= n:
                    return None
                i = j + 1
            elif char == "\\":
                if i + 1 < n and value[i + 1] != "\n":
                    parts.append(text.slice(i + 1, i + 2))
                i = min(i + 2, n)  # a backslash that ends the string escapes nothing
            else:
                run = _PLAIN_RUN.match(value, i)
                j = run.end() if run else i + 1
                if HOLE in value[i:j]:
                    spread = True
                parts.append(text.slice(i, j))
                i = j
        word = Text.join(parts) if parts else text.slice(start, start)
        words.append(SplitWord(word, text.region(start, i), spread))
    return words


# -- containers and places -------------------------------------------------------------------------


@dataclass
class Container:
    """One place where words are written: a flow sequence, a block sequence, a string of
    words inside one scalar, the entries of a mapping (Helm `vllmConfig` keys: removable
    lines), or one scalar value (replaceable)."""

    kind: str  # "flow", "block", "words", "entries", "value"
    elements: list[tuple[int, int]]
    close: int | None = None
    indent: str = ""
    style: str = ""  # quote style for new items (flow/block) or the scalar's style (words)
    exact: bool = True
    dollars: bool = False  # docker-compose: a literal `$` is written `$$`

    def write(self, word: str) -> str | None:
        if self.dollars:
            word = word.replace("$", "$$")
        if self.kind in ("flow", "block"):
            return scalar(word, self.style, self.kind == "flow")
        if self.kind == "value":
            return scalar(word, self.style, self.indent == "flow")
        if self.kind == "words":
            return escape_in_scalar(shlex.quote(word) if word else "''", self.style)
        return None

    def replace(self, index: LineIndex, position: int, word: str) -> Edit | None:
        if not self.exact or self.kind == "entries":
            return None
        content = self.write(word)
        if content is None:
            return None
        start, end = self.elements[position]
        if self.kind == "block":
            start = self._value_start(index.text, position)
        return Edit(index.span(start, end), content)

    def _value_start(self, text: str, position: int) -> int:
        start, _ = self.elements[position]
        if text[start] == "-":
            start += 1
            while text[start] in " \t":
                start += 1
        return start

    def insert(self, index: LineIndex, position: int, words: list[str]) -> Edit | None:
        if not self.exact or self.kind in ("entries", "value"):
            return None
        written = [self.write(word) for word in words]
        if any(w is None for w in written):
            return None
        if self.kind == "block":
            text = index.text
            at = line_end(text, self.elements[position][1]) if self.elements else len(text)
            newline = "\r\n" if text[at : at + 2] == "\r\n" else "\n"
            content = "".join(f"{newline}{self.indent}- {w}" for w in written)
            return Edit(index.span(at, at), content)
        separator = "," if self.kind == "flow" else " "
        glue = ", " if separator == "," else " "
        sequence = Sequence(tuple(self.elements), self.close, separator)
        return insert_after(index, sequence, position, glue.join(w for w in written if w is not None))

    def remove(self, index: LineIndex, positions: set[int]) -> list[Edit] | None:
        if not self.exact:
            return None
        if self.kind == "value":
            return []  # goes with its entry
        if self.kind in ("flow", "words"):
            return remove(index, Sequence(tuple(self.elements), self.close, "," if self.kind == "flow" else " "), positions)
        text = index.text
        if self.kind == "block" and positions >= set(range(len(self.elements))):
            start, _ = self.elements[0]
            return [Edit(index.span(start, self.elements[-1][1]), "[]")]
        edits = []
        for position in sorted(positions):
            start, end = self.elements[position]
            first = line_start(text, start)
            if text[first:start].strip():
                return None
            edits.append(Edit(index.span(first, next_line(text, end)), ""))
        return edits


@dataclass(frozen=True)
class Place:
    container: Container
    position: int


@dataclass
class Words:
    """Tokens for argv and, in parallel, where each one is written."""

    tokens: list[Token] = field(default_factory=list)
    places: list[Place | None] = field(default_factory=list)

    def add(self, token: Token, place: Place | None) -> None:
        self.tokens.append(token)
        self.places.append(place)

    def extend(self, other: Words) -> None:
        self.tokens.extend(other.tokens)
        self.places.extend(other.places)

    def __len__(self) -> int:
        return len(self.tokens)


def _style_of(nodes: list[Node]) -> str:
    styles = [node.style or "" for node in nodes if isinstance(node, ScalarNode)]
    if styles and all(style == '"' for style in styles):
        return '"'
    if styles and all(style == "'" for style in styles):
        return "'"
    if styles and styles.count('"') > len(styles) // 2:
        return '"'
    return ""


def token_of(index: LineIndex, text: Text, region: tuple[int, int], raw: str, spread: bool = False, templates: bool = False) -> Token:
    """A word for argv; a hole or (unless `templates` are plain text) a template placeholder
    makes it unknown."""
    known = HOLE not in text.value and (templates or not templated(text.value))
    return Token(text.value if known else None, index.span(*region), raw, spread=spread)


def sequence_words(index: LineIndex, node: Node, expand: Callable[[Text], Text] | None = None) -> tuple[list[Text], Container] | None:
    """The items of a YAML sequence as texts (scalars only; anything else is unknown) and the
    container to edit them in."""
    if not isinstance(node, SequenceNode):
        return None
    text = index.text
    texts: list[Text] = []
    elements: list[tuple[int, int]] = []
    block = not node.flow_style
    for item in node.value:
        if isinstance(item, ScalarNode):
            value = scalar_text(text, item)
        else:
            value = Text.filled(HOLE, item.start_mark.index, content_end(text, item))
        texts.append(expand(value) if expand else value)
        end = content_end(text, item)
        start = item.start_mark.index
        if block:
            dash = dash_of(text, item)
            if dash is None:
                block = False
            else:
                start = dash
        elements.append((start, end))
    if block and node.value:
        kind = "block"
        first_dash = elements[0][0]
        indent = text[line_start(text, first_dash) : first_dash]
        if indent.strip():
            indent = " " * len(indent)
        container = Container(kind, elements, None, indent, _style_of(node.value))
    elif node.flow_style:
        container = Container("flow", elements, node.end_mark.index - 1, "", _style_of(node.value))
    else:
        container = Container("block", elements, None, "", _style_of(node.value), False)
    return texts, container


def item_tokens(index: LineIndex, node: SequenceNode, texts: list[Text], container: Container, templates: bool = False) -> Words:
    words = Words()
    for position, (item, value) in enumerate(zip(node.value, texts)):
        raw = item.value if isinstance(item, ScalarNode) else index.text[item.start_mark.index : content_end(index.text, item)]
        region = (item.start_mark.index, content_end(index.text, item))
        words.add(token_of(index, value, region, raw, templates=templates), Place(container, position))
    return words


def string_words(index: LineIndex, node: ScalarNode, value: Text) -> tuple[Words, Container] | None:
    """A string split into words (compose `command: vllm serve ...`)."""
    pieces = split(value)
    if pieces is None:
        return None
    container = Container("words", [p.region for p in pieces], None, "", node.style or "", value.exact)
    words = Words()
    for position, piece in enumerate(pieces):
        raw = index.text[piece.region[0] : piece.region[1]]
        words.add(token_of(index, piece.text, piece.region, raw, piece.spread and not piece.text.value.strip(HOLE)), Place(container, position))
    return words, container


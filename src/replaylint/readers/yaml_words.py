"""Words of a command in YAML: list items, shell-like strings, variable references.

A command is written in YAML either as a sequence of scalars (`args: ["--a", "b"]`, or a
block sequence of `- item` lines), one word per item, or as a string split into words
(docker-compose `command: vllm serve m --flag`, split like a shell would but without one).
Each word keeps the `Place` it was written at, so fixes can be written back in the same
container and style: `Container` knows how to write, insert and remove words there.

Scalars are written and substitutions applied by `yaml_scalars`.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import field
from typing import Callable

from yaml.nodes import Node, ScalarNode, SequenceNode

from ..edits import Sequence, insert_after, remove
from ..model import Edit, LineIndex
from ..records import record
from ..vllm.command_line import Token
from .yaml_nodes import HOLE, content_end, dash_of, line_end, line_start, next_line
from .yaml_scalars import escape_in_scalar, scalar, templated
from .yaml_text import Text, scalar_text

_PLAIN_RUN = re.compile(r"[^ \t\n\r'\"\\]+")  # characters `split` copies as they are
_QUOTED_RUN = re.compile(r'[^"\\]+')


# -- splitting strings into words ---------------------------------------------------------------


@record(unsafe_hash=True)
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


@record
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


@record(unsafe_hash=True)
class Place:
    container: Container
    position: int


@record
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
        words.add(
            token_of(index, piece.text, piece.region, raw, piece.spread and not piece.text.value.strip(HOLE)), Place(container, position)
        )
    return words, container

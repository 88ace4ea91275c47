"""Scripts inside scripts: the text of `bash -c STRING`, a heredoc fed to `bash`, `eval`.

The text is put together from the pieces of the words that hold it, each character keeping
the file offsets it came from (see `place.Builder`); parts the outer shell fills in from
variables stand for the `$X` they replaced, and unknown ones become placeholder words.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from ...source import Budget
from .expand import Expander
from .grammar import Node, parse
from .nodes import words_of
from .place import Builder, Place
from .values import NO_DEFAULTS, Chunk, Field, Hole
from .world import World

# tree-sitter-bash starts an expansion inside "..." at the blanks (and `\\` newlines) before it.
_LEADING_BLANKS = re.compile(r"^(?:[ \t\n]|\\\n)+")


def heredoc(redirect: Node, place: Place, world: World, depth: int) -> Place | None:
    """The script a heredoc feeds to a shell (expanded unless its delimiter is quoted)."""
    body = next((c for c in redirect.named_children if c.type == "heredoc_body"), None)
    start_node = next((c for c in redirect.named_children if c.type == "heredoc_start"), None)
    if body is None or start_node is None:
        return None
    literal = any(quote in place.parsed.source(start_node) for quote in "'\"\\")
    builder = Builder()
    parsed = place.parsed
    cursor = parsed.start(body)
    expander = Expander(place, world.scope(off=NO_DEFAULTS), words_of(place, body))
    for child in body.named_children:
        if literal or child.type == "heredoc_content":
            continue
        _heredoc_text(builder, place, cursor, parsed.start(child))
        for part in expander.parts(child, quoted=True):
            add_part(builder, part)
        cursor = parsed.end(child)
    if literal:
        start, end = parsed.start(body), parsed.end(body)
        file_start, file_end = place.range(start, end)
        if place.exact(start, end):
            builder.exact(parsed.text[start:end], file_start, 0)
        else:
            builder.approximate(parsed.text[start:end], file_start, file_end, 0)
    else:
        _heredoc_text(builder, place, cursor, parsed.end(body))
    layer = "heredoc-literal" if literal else "heredoc"
    start, end = place.range(parsed.start(body), parsed.end(body))
    return _place(builder, (*place.layers, layer), (start, end), True, depth, place.budget)


def _heredoc_text(builder: Builder, place: Place, start: int, end: int) -> None:
    """Heredoc text between expansions: `\\$`, `` \\` ``, `\\\\` and `\\` newline are escapes."""
    text = place.parsed.text[start:end]
    index = run = 0
    while index < len(text):
        if text[index] == "\\" and index + 1 < len(text) and text[index + 1] in "$`\\\n":
            add_text(builder, place, text[run:index], start + run)
            if text[index + 1] != "\n":
                file_start, file_end = place.range(start + index, start + index + 2)
                builder.approximate(text[index + 1], file_start, file_end, 0)
            index += 2
            run = index
            continue
        index += 1
    add_text(builder, place, text[run:], start + run)


def herestring(redirect: Node, place: Place, world: World, depth: int) -> Place | None:
    words = [c for c in redirect.named_children]
    if not words:
        return None
    expander = Expander(place, world.scope(off=NO_DEFAULTS), words_of(place, redirect))
    fields = expander.fields(words[-1])
    return assemble(fields, depth, place.budget) if len(fields) == 1 else None


def assemble(fields: list[Field], depth: int, budget: Budget) -> Place | None:
    """A script made of words (joined by spaces, as `eval` does)."""
    builder = Builder()
    layers: set[tuple[str, ...]] = set()
    for number, word in enumerate(fields):
        if word.spread or not word.chunks:
            return None
        if number:
            builder.approximate(" ", word.start, word.start, -1)
        for piece in word.chunks:
            add_part(builder, piece)
            if isinstance(piece, Chunk) and piece.container is not None and piece.site is None:
                layers.add(piece.container.layers)
    outer = (fields[0].start, fields[-1].end)
    editable = len(layers) <= 1
    return _place(builder, next(iter(layers), ()) if editable else (), outer, editable, depth, budget)


def _place(builder: Builder, layers: tuple, outer: tuple[int, int], editable: bool, depth: int, budget: Budget) -> Place | None:
    assembled = builder.build()
    if not assembled.text.strip():
        return None
    parsed = parse(assembled.text, budget, outer[0])
    place = assembled.place(parsed, layers if editable else ("?",), outer, depth + 1)
    place.budget = budget
    return place


def add_part(builder: Builder, part: Any) -> None:
    """Script text from a piece of a word; a variable's value stands for the `$X` it replaced."""
    region = hash(part.container.key) if isinstance(part, Chunk) and part.container is not None else -1
    if isinstance(part, Chunk):
        if part.site is not None and part.assumed is None:  # where the value is written decides, as for a plain command's word
            builder.written_elsewhere(part.text, part.start, part.end, hash(("site", part.site)))
        elif part.site is not None:
            builder.approximate(part.text, part.site[0], part.site[1], hash(("site", part.site)))
        elif part.exact:
            builder.exact(part.text, part.start, region)
        else:
            builder.approximate(part.text, part.start, part.end, region)
    elif isinstance(part, Hole):
        builder.hole(part.start, part.end, region, replace(part, raw=_LEADING_BLANKS.sub("", part.raw)))
    else:  # Elements
        for number, element in enumerate(part.fields):
            if number:
                builder.approximate(" ", part.start, part.end, -1)
            if element.text is None:
                builder.hole(element.start, element.end, -1, Hole(element.start, element.end, element.raw, True))
            else:
                builder.approximate(element.text, element.start, element.end, -1)


def add_text(builder: Builder, place: Place, text: str, start: int) -> None:
    if not text:
        return
    end = start + len(text)
    file_start, file_end = place.range(start, end)
    if place.unknown(start, end):
        builder.hole(file_start, file_end, 0)
    elif place.exact(start, end):
        builder.exact(text, file_start, 0)
    else:
        builder.approximate(text, file_start, file_end, 0)

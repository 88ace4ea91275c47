"""From expanded parts to fields, as bash splits words: `$IFS` splitting of unquoted
expansions, elements of `"${ARR[@]}"` and `"$@"` as separate words, globs and braces (unknown),
and `case` pattern matching (`matches`).
"""

from __future__ import annotations

import fnmatch
import re
from collections import Counter
from dataclasses import field, replace

from ...records import record
from .values import Chunk, Container, Elements, Field, Hole, Part

_IFS = " \t\n"
_GLOB = re.compile(r"[*?]|\[.*\]")


def element_chunks(element: Field) -> tuple[Chunk | Hole, ...]:
    if element.chunks:
        return element.chunks
    if element.text is None:
        return (Hole(element.start, element.end, element.raw, element.spread),)
    return (Chunk(element.text, element.start, element.end, False, True, True, element.container),)


# -- from parts to fields -----------------------------------------------------------------------


@record
class _Building:
    pieces: list[Part] = field(default_factory=list)
    keep: bool = False  # a quoted piece: the field exists even when empty


def make_fields(parts: list[Part], start: int, end: int, raw: str, words: Container) -> list[Field]:
    """Word splitting as bash does it, then one `Field` per resulting word."""
    built: list[_Building] = [_Building()]
    for part in parts:
        current = built[-1]
        if isinstance(part, Hole):
            current.pieces.append(part)
            current.keep = True
        elif isinstance(part, Elements):
            _add_elements(built, part)
        elif part.quoted or not part.expanded:
            current.pieces.append(part)
            current.keep = current.keep or part.quoted
        else:
            _add_split(built, part)
    candidates = [b for b in built if b.keep or any(_has_text(piece) for piece in b.pieces)]
    fields = [_field(b.pieces, start, end, raw, words, alone=len(candidates) == 1) for b in candidates]
    if len(fields) > 1:
        spans = Counter((f.start, f.end) for f in fields)
        fields = [replace(f, shared=True) if spans[(f.start, f.end)] > 1 else f for f in fields]
    return fields


def _has_text(piece: Part) -> bool:
    return not isinstance(piece, Chunk) or bool(piece.text)


def _add_elements(built: list[_Building], part: Elements) -> None:
    for number, element in enumerate(part.fields):
        if number:
            built.append(_Building())
        if part.quoted:
            built[-1].pieces.append(Elements((element,), True, part.start, part.end, part.raw))
            built[-1].keep = True
        elif not element.known:
            built[-1].pieces.append(Hole(element.start, element.end, element.raw, True, element.forwarded if element.spread else 0))
            built[-1].keep = True
        elif any(char in element.text for char in _IFS) or _GLOB.search(element.text or ""):
            for chunk in element_chunks(element):
                if isinstance(chunk, Chunk):
                    _add_split(built, replace(chunk, quoted=False, expanded=True))
        else:
            built[-1].pieces.append(Elements((element,), False, part.start, part.end, part.raw))
            built[-1].keep = True


def _add_split(built: list[_Building], chunk: Chunk) -> None:
    """An unquoted expansion result: IFS whitespace separates words."""
    text = chunk.text
    index = 0
    while index < len(text):
        if text[index] in _IFS:
            stop = index
            while stop < len(text) and text[stop] in _IFS:
                stop += 1
            if built[-1].pieces or built[-1].keep:
                built.append(_Building())
            index = stop
            continue
        stop = index
        while stop < len(text) and text[stop] not in _IFS:
            stop += 1
        built[-1].pieces.append(_slice(chunk, index, stop))
        index = stop


def _slice(chunk: Chunk, start: int, stop: int) -> Chunk:
    if chunk.exact:
        return replace(chunk, text=chunk.text[start:stop], start=chunk.start + start, end=chunk.start + stop)
    return replace(chunk, text=chunk.text[start:stop])


def _field(pieces: list[Part], start: int, end: int, raw: str, words: Container, alone: bool) -> Field:
    if len(pieces) == 1 and isinstance(pieces[0], Elements):
        element = pieces[0].fields[0]
        if element.forwarded and element.spread:  # the script's own arguments, said as the word is (`"$@"`)
            return replace(element, start=start, end=end, raw=raw, container=words)
        return element
    if len(pieces) == 1 and isinstance(pieces[0], Hole):
        # `"$1"` alone is one of the script's own arguments; `$*` and `$2` unquoted, any number of them
        hole = pieces[0]
        return Field(None, start, end, raw, words, spread=hole.splits, chunks=(hole,), forwarded=hole.forwarded)
    flat: list[Chunk | Hole] = []
    for piece in pieces:
        flat.extend(element_chunks(piece.fields[0]) if isinstance(piece, Elements) else (piece,))
    text = "".join(piece.text for piece in flat if isinstance(piece, Chunk)) if all(isinstance(p, Chunk) for p in flat) else None
    if text is not None and _globs_or_braces(pieces):
        return Field(None, start, end, raw, words, spread=_braces(pieces), chunks=tuple(flat))
    if not alone and text is not None:
        piece = _piece_of_string(text, flat, start, end)  # type: ignore[arg-type]
        if piece is not None:
            return piece
    return Field(text, start, end, raw, words, chunks=tuple(flat))


def _piece_of_string(text: str | None, chunks: list[Chunk], start: int, end: int) -> Field | None:
    """A word cut from a variable's quoted value (`FLAGS="--a --b"`, used as `$FLAGS`): the
    piece of that string, so that findings and edits point inside the definition."""
    containers = {chunk.container for chunk in chunks}
    if text is None or not chunks or len(containers) != 1 or None in containers:
        return None
    container = next(iter(containers))
    first, last = chunks[0], chunks[-1]
    if container is None or container.kind != "string" or not all(chunk.expanded and chunk.exact for chunk in chunks):
        return None
    if first.start > last.end or (first.start >= start and last.end <= end):
        return None
    return Field(text, first.start, last.end, text, container, chunks=tuple(chunks))


def _globs_or_braces(pieces: list[Part]) -> bool:
    for index, piece in enumerate(pieces):
        if isinstance(piece, Chunk) and not piece.quoted and _GLOB.search(piece.text):
            return True
        if index == 0 and isinstance(piece, Chunk) and not piece.quoted and not piece.expanded and piece.text.startswith("~"):
            return True
    return _braces(pieces)


def _braces(pieces: list[Part]) -> bool:
    """An unquoted `{`, then an unquoted `,` or `..`, then an unquoted `}`: brace expansion."""
    unquoted = "".join(piece.text if not piece.quoted else "\0" * len(piece.text) for piece in pieces if isinstance(piece, Chunk))
    if "{" not in unquoted:
        return False
    # One pass (the regex `\{[^}]*?(?:,|\.\.)[^{]*?\}` took quadratic time on `{{{{...`).
    opened = armed = False
    for index, char in enumerate(unquoted):
        if char == "{":
            opened, armed = True, False
        elif char == "}":
            if armed:
                return True
            opened = False
        elif opened and (char == "," or unquoted.startswith("..", index)):
            armed = True
    return False


def matches(pattern: str, text: str) -> bool | None:
    """Whether a `case` pattern (or `[[ == ]]` pattern) matches; None for extglob patterns."""
    if re.search(r"[?*+@!]\(", pattern):
        return None
    return fnmatch.fnmatchcase(text, pattern)

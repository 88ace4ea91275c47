"""A JSON object word with unknown expansions inside it, as scripts build an engine option:
`--speculative-config "{\\"model\\":\\"${DFLASH_PATH}\\",\\"num_speculative_tokens\\":${N},...}"`.

The keys written around the expansions are known even when the expansions are not, so the word
reads as the object with each value that holds an expansion unknown. An expansion that is a
key (or part of one), that is unquoted (split into words), or that leaves text JSON cannot read
keeps the whole word unknown.
"""

from __future__ import annotations

import json
from typing import Any

from ...model import UNKNOWN
from .values import Chunk, Field, Hole

_HOLE = "\x00replaylint-hole\x00"  # a JSON string cannot hold a raw NUL: never the script's own text


def json_with_holes(word: Field) -> dict | None:
    """The object a quoted JSON word with unknown expansions stands for (those values UNKNOWN)."""
    if word.text is not None or word.spread or len(word.chunks) < 2:
        return None
    first, last = word.chunks[0], word.chunks[-1]
    if not (
        isinstance(first, Chunk) and isinstance(last, Chunk) and first.text.lstrip().startswith("{") and last.text.rstrip().endswith("}")
    ):
        return None
    text = _with_markers(word.chunks)
    if text is None:
        return None
    try:
        data = json.loads(text, object_pairs_hook=_checked_pairs, strict=False)
    except (ValueError, RecursionError):
        return None
    return data if isinstance(data, dict) else None


def _with_markers(chunks: tuple[Chunk | Hole, ...]) -> str | None:
    """The word's text with each expansion a marker: inside a JSON string as is, elsewhere as a
    string of its own (a value); None when an expansion may split into several words."""
    pieces: list[str] = []
    in_string = escaped = False
    for chunk in chunks:
        if isinstance(chunk, Hole):
            if chunk.splits or escaped:
                return None
            pieces.append(_HOLE if in_string else json.dumps(_HOLE))
            continue
        if "\x00" in chunk.text:
            return None
        for char in chunk.text:
            if escaped:
                escaped = False
            elif char == "\\" and in_string:
                escaped = True
            elif char == '"':
                in_string = not in_string
        pieces.append(chunk.text)
    return "".join(pieces)


class _KeyHole(ValueError):
    """An expansion in a key: any key may be meant."""


def _checked_pairs(pairs: list[tuple[str, Any]]) -> dict:
    if any(_HOLE in key for key, _ in pairs):
        raise _KeyHole
    return {key: _unknown_holes(value) for key, value in pairs}


def _unknown_holes(value: Any) -> Any:
    if isinstance(value, str) and _HOLE in value:
        return UNKNOWN
    if isinstance(value, list):
        return [_unknown_holes(item) for item in value]
    return value

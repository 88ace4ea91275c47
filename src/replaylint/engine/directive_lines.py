"""The lines of a text that a suppression comment can sit on, found without reading every line."""

from __future__ import annotations

import re
from typing import Iterable

from ..model import LineIndex

_NAMED = re.compile(r"noqa|replaylint", re.IGNORECASE)  # in every directive


def naming_lines(index: LineIndex) -> Iterable[int]:
    """The numbers of the lines that name noqa or replaylint, in any case (in a text that is not
    ASCII, after a `#` and as IGNORECASE reads: it pairs letters that `lower()` leaves apart)."""
    text = index.text
    if not text.isascii():
        commented, at = set(), text.find("#")
        while at >= 0:
            commented.add(index.position(at)[0])
            at = text.find("#", at + 1)
        return sorted(number for number in commented if _NAMED.search(index.line_text(number)))
    lowered, found = text.lower(), set()
    for word in ("noqa", "replaylint"):
        at = lowered.find(word)
        while at >= 0:
            found.add(index.position(at)[0])
            at = lowered.find(word, at + 1)
    return sorted(found)


def line_at(index: LineIndex, number: int) -> tuple[str, int]:
    """The line `number` with its line break, and its offset."""
    start = index.offset(number, 1)
    end = index.offset(number + 1, 1) if number < index.line_count else len(index.text)
    return index.text[start:end], start

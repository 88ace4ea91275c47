"""Applying fix edits to text: non-overlapping edits together, the rest in later passes."""

from __future__ import annotations

from typing import Iterable

from .model import Edit


def apply_edits(text: str, edits: Iterable[Edit]) -> tuple[str, list[Edit]]:
    """Apply the edits that do not overlap an earlier one; return the text and the edits left over.

    Edits are taken in offset order; an edit that starts inside a region already edited waits
    for the next pass (the caller re-checks the file and renders fresh edits).
    """
    accepted: list[Edit] = []
    skipped: list[Edit] = []
    last_end = -1
    for edit in sorted(set(edits), key=lambda e: (e.span.start, e.span.end)):
        if edit.span.start < last_end:
            skipped.append(edit)
            continue
        accepted.append(edit)
        last_end = max(last_end, edit.span.end)
    pieces = []
    cursor = 0
    for edit in accepted:
        pieces.append(text[cursor : edit.span.start])
        pieces.append(edit.content)
        cursor = edit.span.end
    pieces.append(text[cursor:])
    return "".join(pieces), skipped

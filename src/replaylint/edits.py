"""Text edits: applying them to a text (`apply_edits`), and minimal edits on separated
sequences, shared by every frontend's fix rendering.

A `Sequence` is the elements of a container in the source text: the arguments of a Python
call, the entries of a dict literal, a JSON array in a Dockerfile `CMD`, a YAML flow list
(separator ","), or the words of a command line or a bash array (separator " "). Edits keep
the user's layout: one element per line stays one per line, inline stays inline, and a
removed element takes exactly one separator with it.

The words of one command may come from several containers (a bash array spread into the
command, a Python list extended by another list). `groups` gives each element its container
number and `closes` each container's closing offset; neighbours are only looked for inside
the same container.
"""

from __future__ import annotations

import json
import re
from typing import Any, Iterable

from .model import Edit, LineIndex
from .records import record


@record(unsafe_hash=True)
class Sequence:
    """Elements as (start, end) offsets, and where the container closes (None: at line end)."""

    elements: tuple[tuple[int, int], ...]
    close: int | None = None
    separator: str = ","
    groups: tuple[int, ...] = ()
    closes: tuple[int | None, ...] = ()
    # Per container: the end of a leading item that is not one of `elements` (`*BASE` in
    # `[*BASE, "--flag"]`), so that removing the first elements takes the separator before them.
    leads: tuple[int | None, ...] = ()
    # Per container: what to delete instead when every element goes (`cmd += ["--x"]`: the
    # statement; `BASE + ["--x"]`: ` + [...]`), so that no `cmd += []` is left behind.
    wholes: tuple[tuple[int, int] | None, ...] = ()

    def group(self, position: int) -> int:
        return self.groups[position] if self.groups else 0

    def next_in_group(self, position: int) -> int | None:
        following = position + 1
        if following < len(self.elements) and self.group(following) == self.group(position):
            return following
        return None

    def previous_in_group(self, position: int) -> int | None:
        previous = position - 1
        if previous >= 0 and self.group(previous) == self.group(position):
            return previous
        return None

    def close_of(self, position: int) -> int | None:
        return self.closes[self.group(position)] if self.closes else self.close

    def lead_of(self, position: int) -> int | None:
        return self.leads[self.group(position)] if self.leads else None


def _indent_of_line(text: str, offset: int) -> tuple[str, bool]:
    """Leading whitespace of the line holding `offset`, and whether `offset` starts the line."""
    line_start = text.rfind("\n", 0, offset) + 1
    prefix = text[line_start:offset]
    stripped = len(prefix) - len(prefix.lstrip(" \t"))
    return prefix[:stripped], prefix.strip() == ""


def _edit(index: LineIndex, start: int, end: int, content: str) -> Edit:
    return Edit(index.span(start, end), content)


def insert_after(index: LineIndex, sequence: Sequence, position: int, element: str, continuation: str = "") -> Edit:
    """Insert `element` after element number `position` (-1: before the first one).

    With a "," separator the new element goes before the comma that may follow the anchor,
    so trailing commas stay where they were. `continuation` is written before a line break
    (a shell line needs " \\").
    """
    text = index.text
    elements = sequence.elements
    if position < 0:
        start = elements[0][0] if elements else (sequence.close or len(text))
        tail = sequence.separator + (" " if sequence.separator == "," else "")
        return _edit(index, start, start, element + (tail if elements else ""))
    anchor_start, anchor_end = elements[position]
    next_position = sequence.next_in_group(position)
    following = elements[next_position][0] if next_position is not None else sequence.close_of(position)
    gap = text[anchor_end:following] if following is not None else ""
    if next_position is None and "\n" not in gap:
        previous = sequence.previous_in_group(position)
        if previous is not None and "\n" in text[elements[previous][1] : anchor_start]:
            gap = text[elements[previous][1] : anchor_start]  # the last of elements one per line: keep that layout
    if "\n" in gap:
        indent, starts_line = _indent_of_line(text, elements[next_position][0] if next_position is not None else anchor_start)
        if not starts_line:
            indent = _indent_of_line(text, anchor_start)[0] + "    "
        if continuation.strip() and continuation.strip() not in gap:
            continuation = ""  # a bash array or a YAML list breaks lines without backslashes
        if sequence.separator == ",":
            return _edit(index, anchor_end, anchor_end, f",{continuation}\n{indent}{element}")
        return _edit(index, anchor_end, anchor_end, f"{continuation}\n{indent}{element}")
    if sequence.separator == ",":
        return _edit(index, anchor_end, anchor_end, f", {element}")
    return _edit(index, anchor_end, anchor_end, f" {element}")


def remove(index: LineIndex, sequence: Sequence, positions: set[int]) -> list[Edit]:
    """Remove the elements at `positions`, each run of neighbours as one block (a container
    whose every element goes, by its `wholes` span when it has one)."""
    edits: list[Edit] = []
    for group, whole in enumerate(sequence.wholes):
        members = {p for p in range(len(sequence.elements)) if sequence.group(p) == group}
        if whole is not None and members and members <= positions:
            edits.append(_edit(index, whole[0], whole[1], ""))
            positions = positions - members
    runs: list[tuple[int, int]] = []
    for position in sorted(positions):
        if runs and runs[-1][1] == position - 1 and sequence.group(position) == sequence.group(runs[-1][1]):
            runs[-1] = (runs[-1][0], position)
        else:
            runs.append((position, position))
    return edits + [_remove_run(index, sequence, first, last) for first, last in runs]


def _remove_run(index: LineIndex, sequence: Sequence, first: int, last: int) -> Edit:
    """One deletion (some callers keep only its span) taking the run and exactly one separator.

    A run that ends a line it shares with a previous element takes the separator before it, so
    the line break (and a shell `\\`) stays and the next line is not joined onto this one. A last
    element alone on its line, before a closing bracket on a later line, takes the comma before
    it when only blanks and `\\` stand between (JSON allows no trailing comma); with a comment
    there, the line goes and the comma stays.
    """
    text = index.text
    elements = sequence.elements
    start, end = elements[first][0], elements[last][1]
    next_position = sequence.next_in_group(last)
    previous_position = sequence.previous_in_group(first)
    previous_end = elements[previous_position][1] if previous_position is not None else sequence.lead_of(first)
    after = end
    if sequence.separator == ",":
        rest = text[after:]
        stripped = rest.lstrip(" \t")
        if stripped.startswith(","):
            after += len(rest) - len(stripped) + 1
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", after)
    starts_line = text[line_start:start].strip() == ""
    whole_lines = starts_line and line_end != -1 and text[after:line_end].strip() in ("", "\\")
    has_close = sequence.close_of(last) is not None
    if whole_lines and (next_position is not None or has_close) and not _closes_on_line(text, after, line_end):
        no_trailing_comma = sequence.separator == "," and after == end
        if next_position is None and no_trailing_comma and previous_end is not None and _bare_comma(text[previous_end:line_start]):
            # the last element, no trailing comma: the comma before it goes too ("a", \ + "b" \ + ])
            return _edit(index, previous_end, end, "")
        return _edit(index, line_start, line_end + 1, "")
    if next_position is not None:
        following = elements[next_position][0]
        if previous_end is not None and "\n" in text[after:following] and "\n" not in text[previous_end:start]:
            # the last on a line it shares with its previous element: the separator before it goes,
            # the line break (and a `\\`) after it stays (a first element is replaced by the next line)
            return _edit(index, previous_end, end, "")
        return _edit(index, start, following, "")
    if previous_end is not None:
        return _edit(index, previous_end, end, "")
    return _edit(index, start, after if sequence.separator == "," else end, "")


def _bare_comma(gap: str) -> bool:
    """`gap` holds one comma and nothing else but blanks, line breaks and `\\` continuations."""
    return "".join(gap.replace("\\", " ").split()) == ","


def _closes_on_line(text: str, start: int, line_end: int) -> bool:
    segment = text[start:line_end]
    return any(bracket in segment for bracket in ")]}")


def apply_edits(text: str, edits: Iterable[Edit]) -> tuple[str, list[Edit]]:
    """Apply the edits that do not overlap an earlier one; return the text and the edits left over.

    Edits are taken in offset order; an edit that starts inside a region already edited waits
    for the next pass (the caller re-checks the file and renders fresh edits).
    """
    accepted: list[Edit] = []
    skipped: list[Edit] = []
    last_end = -1
    # Insertions at one offset are taken in the order of their text: a set's order changes from run to run.
    for edit in sorted(set(edits), key=lambda e: (e.span.start, e.span.end, e.content)):
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


def with_line_endings(content: str, text: str) -> str:
    """New text written with the line endings the file already uses."""
    if "\r\n" in text and text.count("\r\n") * 2 >= text.count("\n"):
        return content.replace("\r\n", "\n").replace("\n", "\r\n")
    return content


# A JSON object as a launch writes it, maybe inside other quoting: its quotes escaped (`\"k\": 1`)
# or single (`{'k': 1}`, which vLLM's parser reads too), a key spelled with `-` for `_`.
_QUOTE = r"""(?:\\"|"|')"""
_SCALAR = r"""(?:true|false|True|False|null|None|-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?|\\"(?:[^"\\]|\\[^"])*\\"|"(?:[^"\\]|\\.)*"|'[^']*')"""


def set_json_key(raw: str, key: str, value: Any) -> str | None:
    """`raw`, the text of a JSON object as written, with the scalar `key` holds replaced by `value`
    written the way the old one was; None when no scalar of that key is written there (absent, or
    an object)."""
    name = re.escape(key).replace("_", "[_-]")
    pattern = re.compile(rf"({_QUOTE}?(?<![\w-]){name}{_QUOTE}?\s*[:=]\s*)({_SCALAR})(?=\s*(?:[,}}\]]|\\?$))")
    replaced, count = pattern.subn(lambda match: match.group(1) + written_like(match.group(2), value), raw, count=1)
    return replaced if count else None


def written_like(original: str, value: Any) -> str:
    """`value` written as `original` was: Python's `True`, `1`, a quoted string (escaped quotes
    kept), else JSON (`false` for `true`)."""
    if isinstance(value, bool) and original in ("True", "False"):
        return str(value)
    if isinstance(value, bool) and original in ("1", "0"):
        return "1" if value else "0"
    inner = value if isinstance(value, str) else json.dumps(value)
    for quote in ('\\"', '"', "'"):
        if original.startswith(quote) and len(original) >= 2 * len(quote):
            return f"{quote}{inner}{quote}"
    return json.dumps(value)

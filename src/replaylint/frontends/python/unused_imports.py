"""Imports a fix leaves unused: a removed `logits_processors=[BanWords]` should not leave
`from my_pkg.procs import BanWords` behind (ruff would then flag F401).

Conservative by design: an imported name goes only when the removed code used it and the word
appears nowhere else in the file (a docstring, `__all__`, another launch all keep it), and an
import statement goes whole only when it is not the only statement of its block. The file is
parsed once for all its fixes (`_imports_of`), so a file with thousands of them stays linear.
"""

from __future__ import annotations

import ast
import bisect
import re

from ...edits import Sequence, remove
from ...model import Edit, LineIndex
from ...records import record
from ...source import SourceFile
from .collect import remove_statement


@record(unsafe_hash=True)
class _Import:
    """One import statement: its bounds, its aliases' bounds and the names they bind."""

    start: int
    end: int
    alone: bool  # the only statement of its block: removing it would leave the block empty
    aliases: tuple[tuple[int, int], ...]
    names: tuple[str, ...]


@record(unsafe_hash=True)
class _Imports:
    statements: tuple[_Import, ...]
    loads: dict[str, tuple[int, ...]]  # an imported name: where the code reads it
    words: dict[str, tuple[int, ...]]  # an imported name: everywhere the word appears


def unused_import_edits(source: SourceFile, removals: list[Edit]) -> list[Edit]:
    """Edits removing the imports that only the code deleted by `removals` used."""
    deleted = _merged([(edit.span.start, edit.span.end) for edit in removals if not edit.content])
    found = _imports_of(source.text, source.index) if deleted else None
    if found is None:
        return []
    edits: list[Edit] = []
    for statement in found.statements:
        skipped = _merged([*deleted, (statement.start, statement.end)])
        gone = {
            position
            for position, name in enumerate(statement.names)
            if _within(found.words.get(name, ()), skipped) == len(found.words.get(name, ())) and _within(found.loads.get(name, ()), deleted)
        }
        if not gone:
            continue
        if len(gone) == len(statement.names):
            if not statement.alone:
                edits.append(remove_statement(source, source.index.span(statement.start, statement.end)))
            continue
        close = statement.end - 1 if source.text[statement.end - 1] == ")" else None
        edits.extend(remove(source.index, Sequence(statement.aliases, close, ","), gone))
    return edits


_cached: tuple[str, _Imports | None] | None = None


def _imports_of(text: str, index: LineIndex) -> _Imports | None:
    """The file's imports, worked out once per text (None when it does not parse)."""
    global _cached
    if _cached is None or _cached[0] is not text:
        _cached = (text, _analyse(text, index))
    return _cached[1]


def _analyse(text: str, index: LineIndex) -> _Imports | None:
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return None
    statements = []
    for node in ast.walk(tree):
        for block in (getattr(node, name, None) for name in ("body", "orelse", "finalbody")):
            if isinstance(block, list):
                statements.extend(_import(index, s, len(block) == 1) for s in block if isinstance(s, (ast.Import, ast.ImportFrom)))
    names = {name for statement in statements for name in statement.names}
    loads: dict[str, list[int]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and node.id in names:
            loads.setdefault(node.id, []).append(_offset(index, node.lineno, node.col_offset))
    words = {name: tuple(m.start() for m in re.finditer(rf"(?<![\w.]){re.escape(name)}(?!\w)", text)) for name in names}
    return _Imports(tuple(statements), {name: tuple(sorted(at)) for name, at in loads.items()}, words)


def _import(index: LineIndex, node: ast.Import | ast.ImportFrom, alone: bool) -> _Import:
    aliases = tuple((_offset(index, a.lineno, a.col_offset), _offset(index, a.end_lineno, a.end_col_offset)) for a in node.names)
    names = tuple((alias.asname or alias.name).partition(".")[0] for alias in node.names)
    return _Import(
        _offset(index, node.lineno, node.col_offset), _offset(index, node.end_lineno, node.end_col_offset), alone, aliases, names
    )


def _offset(index: LineIndex, line: int | None, column: int | None) -> int:
    """An offset in the text from ast's line and column (a column counts UTF-8 bytes)."""
    line, column = line or 1, column or 0
    return index.offset(line, len(index.line_text(line).encode("utf-8")[:column].decode("utf-8", "replace")) + 1)


def _within(offsets: tuple[int, ...], ranges: list[tuple[int, int]]) -> int:
    """How many of the sorted `offsets` lie in the ranges (which do not overlap)."""
    return sum(bisect.bisect_left(offsets, end) - bisect.bisect_left(offsets, start) for start, end in ranges)


def _merged(ranges: list[tuple[int, int]]) -> list[tuple[int, int]]:
    merged: list[tuple[int, int]] = []
    for start, end in sorted(ranges):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    return merged

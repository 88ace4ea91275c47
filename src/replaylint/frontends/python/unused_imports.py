"""Imports a fix leaves unused: a removed `logits_processors=[BanWords]` should not leave
`from my_pkg.procs import BanWords` behind (ruff would then flag F401).

Conservative by design: an imported name goes only when the removed text used it and the word
appears nowhere else in the file (a docstring, `__all__`, another launch all keep it), and an
import statement goes whole only when it is not the last statement of its block.
"""

from __future__ import annotations

import ast
import re

from ...edits import Sequence, remove
from ...model import Edit
from ...source import SourceFile
from .collect import remove_statement


def unused_import_edits(source: SourceFile, removals: list[Edit]) -> list[Edit]:
    """Edits removing the imports that only the text deleted by `removals` used."""
    deleted = [(edit.span.start, edit.span.end) for edit in removals if not edit.content]
    if not deleted:
        return []
    try:
        tree = ast.parse(source.text)
    except (SyntaxError, ValueError):
        return []
    offset = _offsets(source)
    used = {node.id for node in ast.walk(tree) if isinstance(node, ast.Name) and _inside(offset(node), deleted)}
    edits: list[Edit] = []
    for statement, alone in _imports(tree):
        bounds = [(offset(alias), _end(source, alias)) for alias in statement.names]
        names = [(alias.asname or alias.name).partition(".")[0] for alias in statement.names]
        start, end = offset(statement), _end(source, statement)
        gone = {
            position
            for position, name in enumerate(names)
            if name in used and not _used_elsewhere(source.text, name, [*deleted, (start, end)])
        }
        if not gone:
            continue
        if len(gone) == len(names):
            if not alone:
                edits.append(remove_statement(source, source.index.span(start, end)))
            continue
        close = end - 1 if source.text[end - 1] == ")" else None
        edits.extend(remove(source.index, Sequence(tuple(bounds), close, ","), gone))
    return edits


def _imports(tree: ast.AST) -> list[tuple[ast.Import | ast.ImportFrom, bool]]:
    """Every import statement, and whether it is the only statement of its block."""
    found = []
    for node in ast.walk(tree):
        for name in ("body", "orelse", "finalbody"):
            block = getattr(node, name, None)
            if isinstance(block, list):
                found.extend((s, len(block) == 1) for s in block if isinstance(s, (ast.Import, ast.ImportFrom)))
    return found


def _offsets(source: SourceFile):
    """A node's start as an offset in the text (ast counts columns in UTF-8 bytes)."""

    def offset(node: ast.AST) -> int:
        line = source.index.line_text(node.lineno)
        return source.index.offset(node.lineno, len(line.encode("utf-8")[: node.col_offset].decode("utf-8", "replace")) + 1)

    return offset


def _end(source: SourceFile, node: ast.AST) -> int:
    line = source.index.line_text(node.end_lineno)
    return source.index.offset(node.end_lineno, len(line.encode("utf-8")[: node.end_col_offset].decode("utf-8", "replace")) + 1)


def _inside(position: int, ranges: list[tuple[int, int]]) -> bool:
    return any(start <= position < end for start, end in ranges)


def _used_elsewhere(text: str, name: str, skipped: list[tuple[int, int]]) -> bool:
    return any(not _inside(match.start(), skipped) for match in re.finditer(rf"(?<![\w.]){re.escape(name)}(?!\w)", text))

"""Where a finding is in the editor's terms: LSP positions from replaylint's spans and back.

LSP counts lines and columns from 0, columns in code units of the encoding the client and the
server agreed on (UTF-16 unless the client offers another); a `Span` counts both from 1,
columns in code points of the text as checked, which has no byte-order mark even when the
editor's text starts with one. Both end lines at `\\r\\n`, `\\n` or a lone `\\r`.
"""

from __future__ import annotations

from typing import Callable

from lsprotocol import types

from ..model import LineIndex, Span

_BOM = "\ufeff"


def _utf8(text: str) -> int:
    return len(text.encode("utf-8", "surrogatepass"))


def _utf16(text: str) -> int:
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


UNITS: dict[str, Callable[[str], int]] = {"utf-8": _utf8, "utf-16": _utf16, "utf-32": len}


class EditorText:
    """One file's text as checked, with the editor's way of counting columns."""

    def __init__(self, text: str, encoding: str = "utf-16") -> None:
        self.bom = text.startswith(_BOM)
        self.text = text[1:] if self.bom else text
        self.index = LineIndex("", self.text)
        self.units = UNITS.get(str(encoding), _utf16)

    def position(self, line: int, col: int) -> types.Position:
        """The LSP position of a 1-based line and code-point column of the checked text."""
        line = max(1, min(line, self.index.line_count))
        text = self.index.line_text(line)
        prefix = text[: max(0, col - 1)]
        if self.bom and line == 1:
            prefix = _BOM + prefix
        return types.Position(line=line - 1, character=self.units(prefix))

    def position_at(self, offset: int) -> types.Position:
        return self.position(*self.index.position(offset))

    def range(self, span: Span) -> types.Range:
        return types.Range(start=self.position(span.start_line, span.start_col), end=self.position(span.end_line, span.end_col))

    def offset(self, position: types.Position) -> int:
        """The offset in the checked text of an LSP position (clamped to its line)."""
        line = max(0, min(position.line, self.index.line_count - 1)) + 1
        text = self.index.line_text(line)
        units = position.character - (self.units(_BOM) if self.bom and line == 1 else 0)
        col = 0
        while col < len(text) and units > 0:
            units -= self.units(text[col])
            col += 1
        return self.index.offset(line, col + 1)

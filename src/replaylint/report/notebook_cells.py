"""Positions in notebooks as ruff reports them: the cell (numbered from 1, markdown cells
counted) and the line and column in it. A finding's span counts in the notebook's JSON (where
fixes are written); the formats say `cell 2:3:5` (text), give `cell` with cell-relative rows
(json, as ruff's), and keep the file's line where a tool matches lines of the file (GitHub
annotations, SARIF regions), with the cell in the message or properties."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from ..records import record

if TYPE_CHECKING:
    from ..model import Finding, Span


@record(unsafe_hash=True)
class CellPlace:
    cell: int
    line: int
    col: int
    end_line: int
    end_col: int

    @property
    def label(self) -> str:
        return f"cell {self.cell}:{self.line}:{self.col}"


def _notebook(path: str, text: str | None):
    if text is None or not path.lower().endswith(".ipynb"):
        return None
    from ..frontends.notebook.cell_sources import notebook_of

    return notebook_of(path, text)


def cell_place(span: Span, text: str | None) -> CellPlace | None:
    """Where `span` sits in its notebook's cells; None outside a notebook's cell source."""
    notebook = _notebook(span.path, text)
    cell = notebook.cell_at(span.start) if notebook is not None else None
    if cell is None:
        return None
    line, col = cell.position(span.start)
    end_line, end_col = cell.position(span.end) if cell.file_start <= span.end <= cell.file_end else (line, col)
    return CellPlace(cell.number, line, col, end_line, end_col)


def cell_view(finding: Finding, text: str | None) -> tuple[int, Finding, str] | None:
    """The finding as its cell shows it (`full` output): the cell's number, the finding with its
    span and fix in the cell's source, and that source."""
    notebook = _notebook(finding.span.path, text)
    cell = notebook.cell_at(finding.span.start) if notebook is not None else None
    if cell is None or text is None:
        return None
    from ..model import Edit, LineIndex

    index = LineIndex(finding.span.path, cell.code)
    start, end = cell.from_file(finding.span.start), cell.from_file(min(finding.span.end, cell.file_end))
    after = _fixed_code(finding, cell, text)
    edits = (Edit(index.span(0, len(cell.code)), after),) if after is not None and after != cell.code else ()
    return cell.number, replace(finding, span=index.span(start, max(start, end)), edits=edits), cell.code


def _fixed_code(finding: Finding, cell, text: str) -> str | None:
    """The cell's source once the finding's fix is applied: its JSON text alone is edited and
    read back (a report costs the size of the cells it shows, not of the notebook)."""
    import json

    from ..edits import apply_edits

    first, last = cell.file_start, cell.file_end
    local = [edit for edit in finding.edits if edit.span.path == finding.span.path and first <= edit.span.start <= edit.span.end <= last]
    if not local:
        return None
    moved = [replace(edit, span=replace(edit.span, start=edit.span.start - first, end=edit.span.end - first)) for edit in local]
    region, _ = apply_edits(text[first:last], moved)
    try:
        read = json.loads(f'["{region}"]' if cell.listed else f'"{region}"')
    except ValueError:
        return None
    return (
        "".join(read) if isinstance(read, list) and all(isinstance(item, str) for item in read) else read if isinstance(read, str) else None
    )


def line_and_column(span: Span, text: str | None) -> str:
    """`7:3` as the text formats say where a span starts; `cell 2:3:5` in a notebook."""
    place = cell_place(span, text)
    return f"{span.start_line}:{span.start_col}" if place is None else place.label


def said_in_cell(message: str, span: Span, text: str | None) -> str:
    """`message` as a format that keeps the file's line says it in a notebook: after the cell's
    place (`cell 2:3:5: ...`); unchanged outside a notebook."""
    place = cell_place(span, text)
    return message if place is None else f"{place.label}: {message}"

"""`--output-format json`: ruff's field names, plus `name`, `severity`,
`vllm_version` (the releases the launch targets), `judged_by_vllm` (the releases whose rules judged it)
and `related`: the places the finding relates to, in the shape of ruff's locations (ruff's JSON
has no field for them), `{filename, location, end_location, message}`, the message quoting the
text there as the language server does.
"""

from __future__ import annotations

import json

from ..model import Edit, Finding, Span
from .notebook_cells import cell_place
from .run import DOCS_URL, Run, related_places


def _location(line: int, col: int) -> dict[str, int]:
    return {"row": line, "column": col}


def _edit(edit: Edit) -> dict[str, object]:
    span = edit.span
    return {
        "content": edit.content,
        "filename": span.path,
        "location": _location(span.start_line, span.start_col),
        "end_location": _location(span.end_line, span.end_col),
    }


def _related(span: Span, message: str) -> dict[str, object]:
    return {
        "filename": span.path,
        "location": _location(span.start_line, span.start_col),
        "end_location": _location(span.end_line, span.end_col),
        "message": message,
    }


def finding_dict(finding: Finding, texts: dict[str, str] | None = None) -> dict[str, object]:
    """One finding; in a notebook (its text in `texts`), `cell` and rows and columns in the
    cell, as ruff gives them (the fix's edits stay in the file, where they apply)."""
    span = finding.span
    place = cell_place(span, (texts or {}).get(span.path))
    fix = None
    if finding.fix is not None:
        fix = {
            "applicability": finding.fix.applicability.value,
            "message": finding.fix.title,
            "edits": [_edit(edit) for edit in finding.edits],
        }
    found = {
        "code": finding.code,
        "name": finding.name,
        "message": finding.message,
        "severity": finding.severity,
        "filename": span.path,
        "location": _location(span.start_line, span.start_col),
        "end_location": _location(span.end_line, span.end_col),
        "fix": fix,
        "url": DOCS_URL.format(code=finding.code),
        "vllm_version": ", ".join(finding.releases) or None,
        "judged_by_vllm": ", ".join(finding.judged_by) or None,
        "related": [_related(span, message) for span, message in related_places(finding, texts or {})],
    }
    if place is None:
        return found
    located = {"cell": place.cell, "location": _location(place.line, place.col), "end_location": _location(place.end_line, place.end_col)}
    return {**found, **located}


def render(run: Run) -> str:
    return json.dumps([finding_dict(finding, run.texts) for finding in run.findings], indent=2) + "\n"

"""`--output-format rdjson`: reviewdog's Diagnostic Format (`reviewdog -f=rdjson`), with the
fixes as suggestions a reviewer can commit.

    {"source": {"name": "replaylint", "url": "..."},
     "diagnostics": [{"message": "...", "severity": "ERROR",
                      "location": {"path": "deploy/serve.sh", "range": {"start": {"line": 7, "column": 3},
                                                                        "end": {"line": 7, "column": 25}}},
                      "code": {"value": "RPL003", "url": "..."},
                      "suggestions": [{"range": {...}, "text": "..."}]}]}

Choices worth knowing (reviewdog's `proto/rdf/reviewdog.proto` defines the format):

* reviewdog reads the report with protojson, which refuses fields the proto does not define, so
  only its fields appear (ruff's names: `code.value`, `code.url`, `suggestions`). Each
  diagnostic has its own `severity` (`ERROR` or `WARNING`), where ruff gives one for the report.
* Ranges are 1-based with an exclusive end; columns count UTF-8 bytes, as the format defines
  (ruff counts code points, which misplaces a range after a non-ASCII character). A file whose
  text the run lacks keeps code-point columns.
* `suggestions` are the edits of the finding's fix, whatever its safety (as ruff's), when all
  of them lie in the finding's file (a suggestion has no path of its own). A suggestion has no
  field for its safety or title, so the message ends with the fix's `help:` line, which notes an
  unsafe fix.
* The proto has no field for related places (protojson would refuse one), so the message
  has a `note:` line for each place the finding relates to (before the fix's `help:`), as the
  `full` format shows them.
* Paths are relative to `Run.root` (the repository); a file outside it keeps the path it was
  given. reviewdog reads a relative path from its own working directory: run it at the top of
  the repository.
* A notebook's finding keeps the file's lines (where reviewdog comments and its suggestions
  apply; ruff gives rows in the cell without naming it) and its message starts with the cell's
  place: `cell 4:6:19: ...` (and its `note:` lines say places in cells so).
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from ..model import LineIndex
from .notebook_cells import line_and_column, said_in_cell
from .run import DOCS_URL, HOME_URL, Run, fix_help, related_places, shown_path, without_surrogates

if TYPE_CHECKING:
    from ..model import Finding, Span

SEVERITIES = {"error": "ERROR", "warning": "WARNING"}


def _utf8_length(text: str) -> int:
    try:
        return len(text.encode("utf-8", "surrogateescape"))  # an undecodable byte the reader kept
    except UnicodeEncodeError:
        return len(text.encode("utf-8", "replace"))


class _ByteColumns:
    """Turns our code-point positions into reviewdog's UTF-8 byte positions."""

    def __init__(self, texts: dict[str, str]) -> None:
        self.texts = texts
        self.indexes: dict[str, LineIndex] = {}

    def _line(self, path: str, line: int) -> str | None:
        text = self.texts.get(path)
        if text is None:
            return None
        if path not in self.indexes:
            self.indexes[path] = LineIndex(path, text)
        index = self.indexes[path]
        return index.line_text(line) if 0 < line <= index.line_count else None

    def position(self, path: str, line: int, column: int) -> dict[str, int]:
        text = self._line(path, line)
        if text is None:
            return {"line": line, "column": column}
        before = text[: column - 1]
        line_break = max(0, column - 1 - len(before))  # a column inside `\r\n` (one byte each)
        return {"line": line, "column": _utf8_length(before) + line_break + 1}

    def range(self, span: Span) -> dict[str, dict[str, int]]:
        return {
            "start": self.position(span.path, span.start_line, span.start_col),
            "end": self.position(span.path, span.end_line, span.end_col),
        }


def _suggestions(finding: Finding, columns: _ByteColumns) -> list[dict[str, Any]]:
    edits = sorted(finding.edits)
    if finding.fix is None or any(edit.span.path != finding.span.path for edit in edits):
        return []
    return [{"range": columns.range(edit.span), "text": without_surrogates(edit.content)} for edit in edits]


def _message(finding: Finding, root: str, texts: dict[str, str]) -> str:
    notes = [
        f"note: {shown_path(span.path, root)}:{line_and_column(span, texts.get(span.path))}: {said}"
        for span, said in related_places(finding, texts)
    ]
    help_line = fix_help(finding)
    message = said_in_cell(finding.message, finding.span, texts.get(finding.span.path))
    return without_surrogates("\n".join([message, *notes, *([help_line] if help_line else [])]))


def diagnostic(finding: Finding, root: str, columns: _ByteColumns) -> dict[str, Any]:
    result: dict[str, Any] = {
        "message": _message(finding, root, columns.texts),
        "location": {"path": without_surrogates(shown_path(finding.span.path, root)), "range": columns.range(finding.span)},
        "severity": SEVERITIES.get(finding.severity, "ERROR"),
        "code": {"value": finding.code, "url": DOCS_URL.format(code=finding.code)},
    }
    suggestions = _suggestions(finding, columns)
    if suggestions:
        result["suggestions"] = suggestions
    return result


def render(run: Run) -> str:
    columns = _ByteColumns(run.texts)
    report = {
        "source": {"name": "replaylint", "url": HOME_URL},
        "diagnostics": [diagnostic(finding, run.root, columns) for finding in run.findings],
    }
    return json.dumps(report, indent=2) + "\n"

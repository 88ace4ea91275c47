"""`--output-format gitlab`: a GitLab Code Quality report (`artifacts:reports:codequality`).

A JSON array with one issue per finding, in ruff's shape:

    {"check_name": "RPL003", "description": "RPL003: ...", "severity": "major",
     "fingerprint": "...", "location": {"path": "deploy/serve.sh",
     "positions": {"begin": {"line": 7, "column": 3}, "end": {"line": 7, "column": 25}}}}

* `description` starts with the code, as ruff's does: GitLab shows the description, not
  `check_name`.
* `severity`: an error is `major` (ruff's one severity), a warning `minor`.
* `location.path` is relative to `Run.root` (the repository), never prefixed with `./`; a file
  outside it keeps the path it was given. Columns count code points, like ruff's.
* `fingerprint` hashes the repository path with the line fingerprint of `fingerprints` (rule code
  and the flagged line's text, not its number nor the message), so GitLab's merge request widget
  matches an issue across pipelines when unrelated lines move or the target release changes, and
  two findings of one report never share one (GitLab would show them as one).
* A notebook's finding keeps the file's lines (where the widget shows it in the diff; ruff gives
  line 1 for want of them) and its description says the cell: `RPL003: cell 4:6:19: ...`.
"""

from __future__ import annotations

import hashlib
import json
from typing import TYPE_CHECKING, Any

from .fingerprints import LineFingerprints, in_file_order
from .notebook_cells import said_in_cell
from .run import Run, shown_path, without_surrogates

if TYPE_CHECKING:
    from ..model import Finding

SEVERITIES = {"error": "major", "warning": "minor"}


def issue(finding: Finding, path: str, line_fingerprint: str, text: str | None = None) -> dict[str, Any]:
    span = finding.span
    fingerprint = hashlib.sha256(f"{path}\0{line_fingerprint}".encode("utf-8", "surrogatepass")).hexdigest()[:32]
    return {
        "check_name": finding.code,
        "description": f"{finding.code}: {without_surrogates(said_in_cell(finding.message, span, text))}",
        "severity": SEVERITIES.get(finding.severity, "major"),
        "fingerprint": fingerprint,
        "location": {
            "path": without_surrogates(path),
            "positions": {
                "begin": {"line": span.start_line, "column": span.start_col},
                "end": {"line": span.end_line, "column": span.end_col},
            },
        },
    }


def render(run: Run) -> str:
    line_fingerprint = LineFingerprints(run.texts)
    issues = [
        issue(finding, shown_path(finding.span.path, run.root), line_fingerprint(finding), run.texts.get(finding.span.path))
        for finding in in_file_order(run.findings)
    ]
    return json.dumps(issues, indent=2) + "\n"

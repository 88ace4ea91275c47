"""`--output-format github`: GitHub Actions workflow commands, one annotation per finding.

    ::error file=PATH,line=N,endLine=N,col=N,endColumn=N,title=replaylint (CODE)::MESSAGE

GitHub shows at most 10 annotations of each type per step, so errors come first, and a plain
summary line after the annotations says how many there were and where to get them all (SARIF).
Paths are relative to `Run.root` (the repository); a file outside it keeps the path it was given.
"""

from __future__ import annotations

from ..model import Finding
from .notebook_cells import cell_place
from .printable import controls_escaped
from .run import Run, message_with_help, shown_path, without_surrogates

ANNOTATION_LIMIT = 10  # per type and step (actions/toolkit docs)


def escape_data(text: str) -> str:
    """Escape a command's message the way the Actions runner unescapes it (actions/toolkit's
    `escapeData`); other control characters (an ESC from a file name) are shown escaped."""
    shown = controls_escaped(without_surrogates(text), keep="\r\n")
    return shown.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    """Escape a command property value: the message escapes plus the separators `:` and `,`."""
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def _properties(finding: Finding, root: str) -> str:
    span = finding.span
    properties = [("file", shown_path(finding.span.path, root)), ("line", span.start_line), ("endLine", span.end_line)]
    if span.start_line == span.end_line:
        properties += [("col", span.start_col), ("endColumn", max(span.end_col, span.start_col))]
    properties.append(("title", f"replaylint ({finding.code})"))
    return ",".join(f"{key}={escape_property(str(value))}" for key, value in properties)


def annotation(finding: Finding, root: str, text: str | None = None) -> str:
    """One workflow command; a notebook's finding keeps the file's line (where the annotation
    shows in a diff) and starts its message with the cell's place (`cell 2:3:5: `)."""
    command = "error" if finding.severity == "error" else "warning"
    place = cell_place(finding.span, text)
    message = message_with_help(finding) if place is None else f"{place.label}: {message_with_help(finding)}"
    return f"::{command} {_properties(finding, root)}::{escape_data(message)}"


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def summary(run: Run) -> list[str]:
    if run.quiet:
        return []
    errors = sum(1 for finding in run.findings if finding.severity == "error")
    warnings = len(run.findings) - errors
    checked = f" in {_plural(run.files_checked, 'file')} checked" if run.files_checked else ""
    if not run.findings:
        return [f"replaylint: all checks passed{checked}."]
    lines = [f"replaylint: {_plural(errors, 'error')} and {_plural(warnings, 'warning')}{checked}."]
    if errors > ANNOTATION_LIMIT or warnings > ANNOTATION_LIMIT:
        lines.append(
            f"replaylint: GitHub shows only the first {ANNOTATION_LIMIT} errors and {ANNOTATION_LIMIT} warnings of a step; "
            "upload `--output-format sarif` to code scanning (github/codeql-action/upload-sarif) to see every finding."
        )
    return lines


def _most_severe_first(findings: list[Finding], root: str) -> list[Finding]:
    def key(finding: Finding) -> tuple:
        span = finding.span
        return (finding.severity != "error", shown_path(finding.span.path, root), span.start_line, span.start_col, finding.code)

    return sorted(findings, key=key)


def render(run: Run) -> str:
    lines = [annotation(finding, run.root, run.texts.get(finding.span.path)) for finding in _most_severe_first(run.findings, run.root)]
    lines.extend(summary(run))
    return "\n".join(lines) + "\n"

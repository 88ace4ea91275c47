"""`--output-format azure`: Azure Pipelines logging commands, one issue per finding, as ruff
prints them.

    ##vso[task.logissue type=error;sourcepath=PATH;linenumber=N;columnnumber=N;code=CODE;]MESSAGE

`type` is the finding's severity (`error` or `warning`). Paths are relative to `Run.root` (the
repository); a file outside it keeps the path it was given. Property values and the message are
escaped as the Azure Pipelines task library escapes them (a message keeps its line breaks as
`%0A`), so a `;`, `]` or line break in a path or message cannot end the command early; the
message is followed by the fix's `help:` line when there is one. Other control characters (an
ESC from a file name) are shown escaped (`\\x1b`). A notebook's finding keeps the file's line
(where the annotation lands; ruff gives line 1 for want of one) and its message starts with the
cell's place (`cell 4:6:19: ...`), as in `github`.
"""

from __future__ import annotations

from ..model import Finding
from .notebook_cells import said_in_cell
from .printable import controls_escaped
from .run import Run, message_with_help, shown_path, without_surrogates

# What the Azure Pipelines task library escapes, and the agent unescapes: in a message, then in a property value.
_DATA = str.maketrans({"%": "%AZP25", "\r": "%0D", "\n": "%0A"})
_PROPERTY = str.maketrans({"%": "%AZP25", "\r": "%0D", "\n": "%0A", "]": "%5D", ";": "%3B"})


def escape_data(text: str) -> str:
    return controls_escaped(without_surrogates(text), keep="\r\n").translate(_DATA)


def escape_property(text: str) -> str:
    return controls_escaped(without_surrogates(text), keep="\r\n").translate(_PROPERTY)


def log_issue(finding: Finding, root: str, text: str | None = None) -> str:
    span = finding.span
    properties = [
        ("type", "error" if finding.severity == "error" else "warning"),
        ("sourcepath", shown_path(span.path, root)),
        ("linenumber", span.start_line),
        ("columnnumber", span.start_col),
        ("code", finding.code),
    ]
    listed = "".join(f"{key}={escape_property(str(value))};" for key, value in properties)
    return f"##vso[task.logissue {listed}]{escape_data(said_in_cell(message_with_help(finding), span, text))}"


def render(run: Run) -> str:
    return "".join(log_issue(finding, run.root, run.texts.get(finding.span.path)) + "\n" for finding in run.findings)

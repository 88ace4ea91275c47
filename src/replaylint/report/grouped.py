"""`--output-format grouped`: the findings under the name of their file, as ruff prints them.

    examples/shell/serve_replay.sh:
       7:3  RPL003 [*] `--return-sampling-mask` without ...
      12:15 RPL201 ...

    Found 2 errors.

Files in path order (paths as `concise` prints them), each followed by a blank line; a file's
findings by place, their lines right-aligned and columns left-aligned to the widest of the file;
then the summary of the other text formats.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .notebook_cells import cell_place
from .printable import printable_path
from .run import Run
from .text import code_and_message, paint, summary

if TYPE_CHECKING:
    from ..model import Finding


def _file_block(path: str, findings: list[Finding], color: bool, text: str | None = None) -> list[str]:
    findings = sorted(findings, key=lambda f: (f.span.start_line, f.span.start_col, f.code))
    line_width = max(len(str(f.span.start_line)) for f in findings)
    column_width = max(len(str(f.span.start_col)) for f in findings)
    lines = [paint(printable_path(path), "underline", color) + ":"]
    for finding in findings:
        cell = cell_place(finding.span, text)  # a notebook's: `cell 2:1:8`, as ruff groups them
        place = cell.label if cell else f"{finding.span.start_line:>{line_width}}:{finding.span.start_col:<{column_width}}"
        lines.append(f"  {place} {code_and_message(finding, color)}")
    return [*lines, ""]


def render(run: Run) -> str:
    by_path: dict[str, list[Finding]] = {}
    for finding in run.findings:
        by_path.setdefault(finding.span.path, []).append(finding)
    out: list[str] = []
    for path in sorted(by_path):
        out.extend(_file_block(path, by_path[path], run.color, run.texts.get(path)))
    out.extend(summary(run))
    return "\n".join(out) + "\n"

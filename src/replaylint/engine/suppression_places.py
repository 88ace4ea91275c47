"""Where a suppression comment silencing a finding may be written (`--add-noqa`, the editor's
"Disable for this line"), as `suppress` reads them."""

from __future__ import annotations

from typing import Iterator

from ..edits import with_line_endings
from ..model import Edit, Finding, LineIndex
from .suppress import ALL, COMMENT_LINES_ONLY, scan


def suppression_edits(finding: Finding, text: str, code: str) -> Iterator[Edit]:
    """Where a comment silencing `code` on the finding's first line may go, best first: added
    to a suppression already there, at the end of the line, alone on the line above it, alone
    on the line above the first line of its launch. None in JSON, which has no comments."""
    from ..frontends import kind_for

    kind = kind_for(finding.span.path, text[:256].encode("utf-8", "replace"))
    if kind == "json":
        return  # JSON has no comments: `per-file-ignores` silences its findings
    index = LineIndex(finding.span.path, text)
    line = finding.span.start_line
    comment = f"# noqa: {code}" if kind == "python" else f"# replaylint: ignore[{code}]"
    by_line, _ = scan(index, kind == "python")
    for existing in (by_line.get(line), by_line.get(line - 1)):
        if existing is not None and existing.items and existing.codes is not ALL and (existing.line == line or existing.own_line):
            yield Edit(index.span(existing.items[-1].end, existing.items[-1].end), f", {code}")
    content = index.line_text(line)
    if kind not in COMMENT_LINES_ONLY and not content.rstrip().endswith("\\"):
        code_end = index.offset(line, len(content.rstrip()) + 1)
        yield Edit(index.span(code_end, index.offset(line, len(content) + 1)), f"  {comment}")
    launch_line = finding.launch.span.start_line if finding.launch is not None and finding.launch.span.path == finding.span.path else line
    for above in dict.fromkeys((line, launch_line)):
        start = index.offset(above, 1)
        above_text = index.line_text(above)
        indent = above_text[: len(above_text) - len(above_text.lstrip(" \t"))]
        yield Edit(index.span(start, start), with_line_endings(f"{indent}{comment}\n", text))

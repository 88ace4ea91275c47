"""Fingerprints that keep a finding's identity across runs, for SARIF and GitLab Code Quality.

A fingerprint is `<16 hex>:<n>`. The hex is a SHA-256 over the rule code and the text of the
finding's first line with all whitespace removed (empty when the file's text is not in
`Run.texts`); `n` counts, from 1, the findings of that code on lines with that same text in the
file so far. Neither the line number nor the message (which names the judged vLLM release) goes
in, so a finding keeps its identity when unrelated lines move or the target release changes;
like GitHub's own hash, it changes when the flagged line itself is edited.
"""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..model import Finding, Span


class LineFingerprints:
    """Call it on the findings in `in_file_order`: the occurrence numbers count in that order."""

    def __init__(self, texts: dict[str, str]) -> None:
        self.texts = texts
        self.lines: dict[str, list[str]] = {}
        self.seen: dict[tuple[str, str], int] = {}

    def _line(self, span: Span) -> str:
        if span.path not in self.lines:
            self.lines[span.path] = self.texts.get(span.path, "").split("\n")
        lines = self.lines[span.path]
        return lines[span.start_line - 1] if 0 < span.start_line <= len(lines) else ""

    def __call__(self, finding: Finding) -> str:
        line = "".join(self._line(finding.span).split())
        digest = hashlib.sha256(f"{finding.code}\0{line}".encode("utf-8", "surrogatepass")).hexdigest()[:16]
        key = (finding.span.path, digest)
        self.seen[key] = self.seen.get(key, 0) + 1
        return f"{digest}:{self.seen[key]}"


def in_file_order(findings: list[Finding]) -> list[Finding]:
    """Findings by file and place: occurrence numbers must not depend on the order the walk met
    the files or launches."""
    return sorted(findings, key=lambda f: (f.span.path, f.span.start_line, f.span.start_col, f.code, f.span.end_line, f.span.end_col))

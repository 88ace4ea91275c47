"""Suppression comments: `# noqa: RPL001` (Python), `# replaylint: ignore[RPL001]` (every file type).

A comment on any line of a finding's span, or alone on the line above it (or above the first
line of the finding's launch: a comment cannot sit inside a continued shell command), suppresses
the listed codes or rule names (none listed: every rule). `# replaylint: noqa` in the first
comment block of a file suppresses the whole file (or the listed codes). A reason may follow
`--`. A blanket `# noqa` belongs to other linters too, so only `# noqa: RPL...` counts here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .model import Finding, LineIndex
from .rules import BY_NAME

_IGNORE = re.compile(r"#\s*replaylint:\s*ignore(?:\[(?P<codes>[^\]]*)\])?(?P<reason>\s*--[^\n]*)?", re.IGNORECASE)
_NOQA = re.compile(r"#\s*noqa:\s*(?P<codes>[A-Za-z0-9_\-, ]+)", re.IGNORECASE)
_FILE_NOQA = re.compile(r"#\s*replaylint:\s*noqa(?:\[(?P<brackets>[^\]]*)\]|:\s*(?P<codes>[A-Za-z0-9_\-, ]+))?", re.IGNORECASE)

ALL = frozenset({"*"})


@dataclass
class Suppression:
    line: int
    codes: frozenset[str]
    own_line: bool
    start: int  # offset of the comment's `#`
    end: int
    used: set[str] = field(default_factory=set)

    def matches(self, code: str) -> bool:
        return self.codes is ALL or code in self.codes


def _codes(text: str | None) -> frozenset[str]:
    if not text:
        return ALL
    text = text.split("--", 1)[0]
    codes = set()
    for item in re.split(r"[,\s]+", text.strip()):
        if item:
            rule = BY_NAME.get(item)
            codes.add(rule.code if rule else item.upper())
    return frozenset(codes) or ALL


def scan(index: LineIndex, python: bool) -> tuple[dict[int, Suppression], frozenset[str]]:
    """Line suppressions by line number, and the file-level codes (empty: none)."""
    by_line: dict[int, Suppression] = {}
    file_codes: frozenset[str] = frozenset()
    in_header = True
    offset = 0
    for number, line in enumerate(index.lines(), start=1):
        stripped = line.strip()
        if in_header:
            if stripped.startswith("#"):
                header = _FILE_NOQA.search(stripped)
                if header:
                    file_codes = _codes(header.group("brackets") or header.group("codes"))
            elif stripped:
                in_header = False
        if "#" in line and not _FILE_NOQA.search(line):
            match = _IGNORE.search(line)
            codes = _codes(match.group("codes")) if match else None
            if match is None and python:
                match = _NOQA.search(line)
                codes = frozenset(c for c in _codes(match.group("codes")) if c.startswith("RPL")) if match else None
            if match is not None and codes:
                by_line[number] = Suppression(number, codes, stripped.startswith("#"), offset + match.start(), offset + match.end())
        offset += len(line)
    return by_line, file_codes


def apply(findings: list[Finding], index: LineIndex, python: bool) -> tuple[list[Finding], list[Suppression]]:
    """The findings no suppression comment covers, and every line suppression of the file."""
    if "#" not in index.text:
        return findings, []
    by_line, file_codes = scan(index, python)
    kept = []
    for finding in findings:
        if file_codes and (file_codes is ALL or finding.code in file_codes):
            continue
        span = finding.span
        candidates = [by_line.get(line) for line in (span.start_line, span.end_line)]
        above = {span.start_line - 1, finding.launch.span.start_line - 1 if finding.launch else 0}
        candidates += [by_line[line] for line in above if line in by_line and by_line[line].own_line]
        covering = [s for s in candidates if s is not None and s.matches(finding.code)]
        for suppression in covering:
            suppression.used.add(finding.code)
        if not covering:
            kept.append(finding)
    return kept, list(by_line.values())


def unused(suppressions: list[Suppression], enabled: frozenset[str]) -> list[Suppression]:
    """Suppressions that silenced nothing this run, among codes this run checks."""
    found = []
    for suppression in suppressions:
        if suppression.used:
            continue
        if suppression.codes is ALL or suppression.codes & enabled:
            found.append(suppression)
    return found

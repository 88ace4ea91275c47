"""Suppression comments: `# noqa: RPL001` (Python), `# replaylint: ignore[RPL001]` (every file type).

A comment on any line of a finding's span, or alone on the line above it, suppresses the listed
codes or rule names (none listed: every rule). `# replaylint: noqa` in the first comment block of
a file suppresses the whole file (or the listed codes). A reason may follow `--`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .model import Finding, LineIndex
from .rules import BY_NAME

_IGNORE = re.compile(r"#\s*replaylint:\s*ignore(?:\[(?P<codes>[^\]]*)\])?", re.IGNORECASE)
_NOQA = re.compile(r"#\s*noqa(?::\s*(?P<codes>[A-Za-z0-9_\-, ]+))?", re.IGNORECASE)
_FILE_NOQA = re.compile(r"#\s*replaylint:\s*noqa(?:\[(?P<brackets>[^\]]*)\]|:\s*(?P<codes>[A-Za-z0-9_\-, ]+))?", re.IGNORECASE)

ALL = frozenset({"*"})


@dataclass(frozen=True)
class Suppression:
    line: int
    codes: frozenset[str]
    own_line: bool


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


def _matches(codes: frozenset[str], code: str) -> bool:
    return codes is ALL or "*" in codes or code in codes


def scan(index: LineIndex, python: bool) -> tuple[dict[int, Suppression], frozenset[str]]:
    """Line suppressions by line number, and the file-level codes (empty: none)."""
    by_line: dict[int, Suppression] = {}
    file_codes: frozenset[str] = frozenset()
    in_header = True
    patterns = (_IGNORE, _NOQA) if python else (_IGNORE,)
    for number, line in enumerate(index.text.splitlines(), start=1):
        stripped = line.strip()
        if in_header:
            if stripped.startswith("#"):
                header = _FILE_NOQA.search(stripped)
                if header:
                    file_codes = _codes(header.group("brackets") or header.group("codes"))
            elif stripped:
                in_header = False
        if "#" not in line:
            continue
        for pattern in patterns:
            match = pattern.search(line)
            if match and not _FILE_NOQA.search(line):
                by_line[number] = Suppression(number, _codes(match.group("codes")), stripped.startswith("#"))
                break
    return by_line, file_codes


def apply(findings: list[Finding], index: LineIndex, python: bool) -> list[Finding]:
    """The findings no suppression comment covers."""
    if not findings or "#" not in index.text:
        return findings
    by_line, file_codes = scan(index, python)
    kept = []
    for finding in findings:
        if file_codes and _matches(file_codes, finding.code):
            continue
        span = finding.span
        lines = {span.start_line, span.end_line}
        covered = any(line in by_line and _matches(by_line[line].codes, finding.code) for line in lines)
        # Alone on the line above the finding, or above the first line of its launch (a comment
        # cannot sit inside a continued shell command).
        for line in {span.start_line - 1, finding.launch.span.start_line - 1 if finding.launch else 0}:
            above = by_line.get(line)
            if above is not None and above.own_line and _matches(above.codes, finding.code):
                covered = True
        if not covered:
            kept.append(finding)
    return kept

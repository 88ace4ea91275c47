"""`--output-format sarif`: SARIF 2.1.0 for GitHub code scanning and other SARIF viewers.

Choices worth knowing (GitHub's "SARIF support for code scanning" page says what it reads):

* `driver.rules` lists every rule of the rule table (RPL900 and RPL901 included) in code order,
  whether it fired or not, so a rule's `ruleIndex` is the same in every run.
* Locations are relative to `Run.root` (the repository) with `uriBaseId` `%SRCROOT%`; a file
  outside the root gets an absolute `file://` URI instead.
* Regions copy our spans 1:1: lines and columns are 1-based and `endColumn` is exclusive in
  both. Columns count code points, which `run.columnKind` says (SARIF's default is UTF-16).
* `partialFingerprints.primaryLocationLineHash` is the line fingerprint of `fingerprints`
  (rule code and the flagged line's text, not its number nor the message), so an alert keeps
  its identity when unrelated lines move or the target release changes.
* Lone surrogates (undecodable bytes a shell script keeps) become U+FFFD in every string.
* `fixes` carry the finding's text edits (only when it has some), whatever their safety; the
  fix's `properties.applicability` says whether `--fix` applies it.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any
from urllib.parse import quote

from .. import __version__
from ..model import Edit, Finding, Fix, Span
from ..records import record
from ..rules import RULES
from .fingerprints import LineFingerprints, in_file_order
from .notebook_cells import cell_place
from .run import DOCS_URL, HOME_URL, Run, related_places, relative_path, without_surrogates

SCHEMA_URL = "https://json.schemastore.org/sarif-2.1.0.json"
SRCROOT = "%SRCROOT%"
FULL_DESCRIPTION_LIMIT = 1000  # characters GitHub displays

_CATEGORIES = {"0": "engine-config", "1": "sampling-request", "2": "launch-syntax", "9": "meta"}


@record(unsafe_hash=True)
class RuleInfo:
    """What SARIF says about one rule: from the rule table, or from a finding whose code it lacks."""

    code: str
    name: str
    summary: str
    severity: str
    documentation: str


def rule_infos() -> list[RuleInfo]:
    return [RuleInfo(rule.code, rule.name, rule.summary, rule.severity, rule.documentation()) for rule in RULES]


def _section(markdown: str, heading: str) -> str:
    """The text under `## heading`, up to the next heading."""
    match = re.search(rf"^## {re.escape(heading)}\n(.*?)(?=^## |\Z)", markdown, re.MULTILINE | re.DOTALL)
    return match.group(1).strip() if match else ""


def _shorten(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    return text[: limit - 3].rsplit(" ", 1)[0] + "..."


def _descriptor(info: RuleInfo) -> dict[str, Any]:
    full = _section(info.documentation, "What it does") or info.summary
    return {
        "id": info.code,
        "name": info.name,
        "shortDescription": {"text": info.summary},
        "fullDescription": {"text": _shorten(" ".join(full.split()), FULL_DESCRIPTION_LIMIT)},
        "help": {"text": info.documentation or info.summary, "markdown": info.documentation or info.summary},
        "helpUri": DOCS_URL.format(code=info.code),
        "defaultConfiguration": {"level": info.severity},
        "properties": {
            "tags": ["correctness", "vllm", _CATEGORIES.get(info.code[3:4], "other")],
            "problem.severity": info.severity,
        },
    }


class _Locator:
    """Turns paths and spans into SARIF locations relative to the run's root."""

    def __init__(self, root: str) -> None:
        self.root = root

    def artifact(self, path: str) -> dict[str, str]:
        relative = relative_path(path, self.root)
        if relative is None:
            return {"uri": Path(path).resolve().as_uri()}
        return {"uri": quote(relative, safe="/", errors="surrogateescape"), "uriBaseId": SRCROOT}

    @staticmethod
    def region(span: Span) -> dict[str, int]:
        return {"startLine": span.start_line, "startColumn": span.start_col, "endLine": span.end_line, "endColumn": span.end_col}

    def physical(self, span: Span) -> dict[str, Any]:
        return {"physicalLocation": {"artifactLocation": self.artifact(span.path), "region": self.region(span)}}


def _fix(finding: Finding, fix: Fix, locator: _Locator) -> dict[str, Any]:
    by_path: dict[str, list[Edit]] = {}
    for edit in sorted(finding.edits):
        by_path.setdefault(edit.span.path, []).append(edit)
    changes = [
        {
            "artifactLocation": locator.artifact(path),
            "replacements": [
                {"deletedRegion": locator.region(edit.span), "insertedContent": {"text": without_surrogates(edit.content)}}
                for edit in edits
            ],
        }
        for path, edits in by_path.items()
    ]
    return {
        "description": {"text": without_surrogates(fix.title)},
        "artifactChanges": changes,
        "properties": {"applicability": fix.applicability.value},
    }


def _result(finding: Finding, index: int, locator: _Locator, fingerprint: str, texts: dict[str, str]) -> dict[str, Any]:
    place = cell_place(finding.span, texts.get(finding.span.path))  # a notebook's: regions stay in the file, the cell is said
    result: dict[str, Any] = {
        "ruleId": finding.code,
        "ruleIndex": index,
        "level": finding.severity,
        "message": {"text": without_surrogates(finding.message if place is None else f"{place.label}: {finding.message}")},
        "locations": [locator.physical(finding.span)],
        "partialFingerprints": {"primaryLocationLineHash": fingerprint},
    }
    if finding.related:
        result["relatedLocations"] = [
            {"id": number, **locator.physical(span), "message": {"text": without_surrogates(said)}}
            for number, (span, said) in enumerate(related_places(finding, texts), 1)
        ]
    if finding.edits and finding.fix is not None:
        result["fixes"] = [_fix(finding, finding.fix, locator)]
    if finding.releases:
        result["properties"] = {"vllmReleases": list(finding.releases), "judgedByVllm": list(finding.judged_by)}
    if place is not None:
        cell = {"cell": place.cell, "cellLine": place.line, "cellColumn": place.col}
        result["properties"] = {**result.get("properties", {}), **cell}
    return result


def _rules_for(findings: list[Finding]) -> list[RuleInfo]:
    """The rule table, plus a plain descriptor for any code of `findings` it lacks."""
    infos = rule_infos()
    known = {info.code for info in infos}
    for finding in findings:
        if finding.code not in known:
            known.add(finding.code)
            infos.append(RuleInfo(finding.code, finding.name, finding.name, finding.severity, ""))
    return infos


def sarif_log(run: Run) -> dict[str, Any]:
    infos = _rules_for(run.findings)
    index = {info.code: number for number, info in enumerate(infos)}
    locator = _Locator(run.root)
    fingerprint = LineFingerprints(run.texts)
    results = [_result(finding, index[finding.code], locator, fingerprint(finding), run.texts) for finding in in_file_order(run.findings)]
    root_uri = Path(run.root).resolve().as_uri().rstrip("/") + "/"
    return {
        "$schema": SCHEMA_URL,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "replaylint",
                        "version": __version__,
                        "semanticVersion": __version__,
                        "informationUri": HOME_URL,
                        "rules": [_descriptor(info) for info in infos],
                    }
                },
                "originalUriBaseIds": {SRCROOT: {"uri": root_uri}},
                "columnKind": "unicodeCodePoints",
                "results": results,
            }
        ],
    }


def render(run: Run) -> str:
    return json.dumps(sarif_log(run), indent=2) + "\n"

"""Every rule's VALID and INVALID examples, run through the whole pipeline (fixit style)."""

from __future__ import annotations

import pytest

from replaylint.edits import apply_edits
from replaylint.rules import RULES
from replaylint.rules.base import Example
from replaylint.vllm.releases import Release, judged

CASES = [
    pytest.param(rule, example, id=f"{rule.code}-{'valid' if example.count == 0 else 'invalid'}-{number}")
    for rule in RULES
    for number, example in enumerate((*rule.VALID, *rule.INVALID))
]


@pytest.mark.parametrize(("rule", "example"), CASES)
def test_example(rule, example: Example, check) -> None:
    files = {example.filename: example.source, **example.files}
    # A preview rule is off by default: its examples select it by code.
    results = check(files, release=example.release, extend_select=(rule.code,) if rule.preview else ())
    findings = [f for f in results[example.filename].findings if f.code == rule.code]
    if rule.code != "RPL900":
        assert all(f.code != "RPL900" for f in results[example.filename].findings), results[example.filename].findings
    if example.count == 0:
        assert findings == [], f"{rule.code} should accept:\n{example.source}\ngot: {[f.message for f in findings]}"
        return
    assert len(findings) >= example.count, f"{rule.code} should flag:\n{example.source}"
    for finding in findings:
        assert example.message in finding.message
        if " says " in finding.message and "vLLM " in finding.message:
            # Words are quoted from a release whose code was read, never from a newer one.
            assert f"vLLM {judged(Release.parse(example.release))} says" in finding.message
    if example.fixed is not None:
        edits = [edit for finding in findings for edit in finding.edits]
        assert edits, f"{rule.code} has no fix for:\n{example.source}"
        fixed, left = apply_edits(example.source, edits)
        assert left == []
        assert fixed == example.fixed


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.code)
def test_rule_is_documented(rule) -> None:
    doc = rule.documentation()
    for heading in ("## What it does", "## Why is this bad?", "## Example", "## Use instead", "## Fix safety", "## References"):
        assert heading in doc, f"{rule.code} lacks {heading}"
    assert rule.VALID and rule.INVALID
    assert rule.name == rule.name.lower() and " " not in rule.name

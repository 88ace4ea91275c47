"""Write docs/rules/<CODE>.md from each rule's own documentation (the rule module is the source).

Run after changing a rule's docstring; tests/test_rule_docs.py fails when the pages are stale.
"""

from __future__ import annotations

import sys
from pathlib import Path

from replaylint.rules import RULES

DOCS = Path(__file__).resolve().parent.parent / "docs" / "rules"


_PREVIEW = " Preview: off unless selected by its code."


def page(rule) -> str:
    fix = rule.fix_applicability.value if rule.fix_applicability else "none"
    releases = f"{rule.since} and newer" if rule.until is None else f"{rule.since} to {rule.until}"
    return (
        f"# {rule.code} {rule.name}\n\n"
        f"{rule.summary}.\n\n"
        f"Severity: {rule.severity}. vLLM releases: {releases}. Fix: {fix}.{_PREVIEW if rule.preview else ''}\n\n"
        f"{rule.documentation()}\n"
    )


def main() -> int:
    DOCS.mkdir(parents=True, exist_ok=True)
    for rule in RULES:
        (DOCS / f"{rule.code}.md").write_text(page(rule), encoding="utf-8")
    index = ["# replaylint rules\n", "| code | name | summary |", "|---|---|---|"]
    index += [f"| [{rule.code}]({rule.code}.md) | {rule.name} | {rule.summary} |" for rule in RULES]
    (DOCS / "README.md").write_text("\n".join(index) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())

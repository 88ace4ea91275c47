"""docs/rules/ is generated from the rule modules and must not drift from them."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from replaylint.rules import RULES

ROOT = Path(__file__).resolve().parent.parent


def _generator():
    spec = importlib.util.spec_from_file_location("generate_rule_docs", ROOT / "scripts" / "generate_rule_docs.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module


def test_rule_pages_are_up_to_date() -> None:
    generator = _generator()
    for rule in RULES:
        page = ROOT / "docs" / "rules" / f"{rule.code}.md"
        assert page.exists() and page.read_text(encoding="utf-8") == generator.page(rule), (
            f"{page} is stale: run python scripts/generate_rule_docs.py"
        )

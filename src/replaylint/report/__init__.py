"""Output formats. Each module renders a list of findings (with the files' texts) to a string."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..model import Applicability, Finding

FORMATS = ("full", "concise", "json")
DOCS_URL = "https://github.com/replaylint/replaylint/blob/main/docs/rules/{code}.md"


@dataclass
class Run:
    """Everything an output format may show about one run."""

    findings: list[Finding]
    texts: dict[str, str] = field(default_factory=dict)
    files_checked: int = 0
    fixed: int = 0
    unsafe_fixes_enabled: bool = False
    show_fixes: bool = False
    notes: list[str] = field(default_factory=list)
    root: str = "."


def applicable(finding: Finding, unsafe: bool) -> bool:
    """Whether `--fix` (with `--unsafe-fixes` when `unsafe`) would apply this finding's fix."""
    if not finding.fixable or finding.fix is None:
        return False
    return finding.fix.applicability is Applicability.SAFE or (unsafe and finding.fix.applicability is Applicability.UNSAFE)


def render(name: str, run: Run) -> str:
    if name == "json":
        from .json import render as render_json

        return render_json(run)
    from .text import render as render_text

    return render_text(run, concise=(name == "concise"))

"""What every output format reads: the run (`Run`: findings, file texts, counts, notes), which
fixes `--fix` would apply, and paths relative to the repository."""

from __future__ import annotations

import os
import re
from dataclasses import field
from typing import TYPE_CHECKING

from ..records import record

if TYPE_CHECKING:
    from ..model import Finding, Span

DOCS_URL = "https://github.com/replaylint/replaylint/blob/main/docs/rules/{code}.md"
HOME_URL = "https://github.com/replaylint/replaylint"

_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


@record
class Run:
    """Everything an output format may show about one run.

    `root` is the folder that machine formats make paths relative to (the repository's top
    level): code scanning and workflow annotations match files by repository-relative path.
    """

    findings: list[Finding]
    texts: dict[str, str] = field(default_factory=dict)
    files_checked: int = 0
    fixed: int = 0
    fixed_warnings: int = 0  # of `fixed`, those of warnings (the summary counts by severity)
    unsafe_fixes_enabled: bool = False
    show_fixes: bool = False
    fix_summary: list[str] = field(default_factory=list)  # --show-fixes: what --fix changed, before the summary
    notes: list[str] = field(default_factory=list)
    root: str = "."
    color: bool = False
    quiet: bool = False  # --quiet: the findings alone, no summary
    rendered: str = ""  # the report as printed (a later run of the same words may give it again)


def applicable(finding: Finding, unsafe: bool) -> bool:
    """Whether `--fix` (with `--unsafe-fixes` when `unsafe`) would apply this finding's fix."""
    from ..model import Applicability

    if not finding.fixable or finding.fix is None:
        return False
    return finding.fix.applicability is Applicability.SAFE or (unsafe and finding.fix.applicability is Applicability.UNSAFE)


def fix_help(finding: Finding) -> str | None:
    """`help: <the fix's title>`, noting a fix that `--fix` alone does not apply; None without a fix."""
    from ..model import Applicability

    if finding.fix is None:
        return None
    note = {Applicability.UNSAFE: " (unsafe fix)", Applicability.DISPLAY_ONLY: " (suggestion)"}.get(finding.fix.applicability, "")
    return f"help: {finding.fix.title}{note}"


def message_with_help(finding: Finding) -> str:
    """The message, and on a second line the fix's `help:` when there is one (the CI formats
    have no field that says whether a fix is safe)."""
    help_line = fix_help(finding)
    return finding.message if help_line is None else f"{finding.message}\n{help_line}"


def related_places(finding: Finding, texts: dict[str, str]) -> list[tuple[Span, str]]:
    """The places a finding relates to (the setting that turns replay on, each place its value
    passed through, the launch), each with what it says: the text there quoted, as the language
    server's related information says it, or `related` when the run lacks the file's text."""
    from ..model import snippet

    places = []
    for span in finding.related:
        text = texts.get(span.path)
        quoted = snippet(text[span.start : span.end]) if text is not None else ""
        places.append((span, f"`{quoted}`" if quoted else "related"))
    return places


def without_surrogates(text: str) -> str:
    """`text` with each lone surrogate as U+FFFD.

    Shell scripts and Dockerfiles keep undecodable bytes as lone surrogates, and messages quote
    them; a machine format must stay valid UTF-8 (strict JSON readers reject `\\udcff`).
    """
    return _LONE_SURROGATE.sub("\ufffd", text)


def relative_path(path: str, root: str) -> str | None:
    """`path` relative to `root` with `/` separators, or None when it lies outside `root`.

    Both are compared as given and then with symlinks resolved, so a checkout reached through
    a symlinked folder (macOS `/tmp`) still counts as inside the repository.
    """
    for resolve in (os.path.abspath, os.path.realpath):
        target, base = resolve(path), resolve(root)
        try:
            inside = os.path.commonpath([target, base]) == base
        except ValueError:  # different drives on Windows
            continue
        if inside:
            return os.path.relpath(target, base).replace(os.sep, "/")
    return None


def shown_path(path: str, root: str) -> str:
    """`path` as the CI formats show it: relative to `root`, or as given when it lies outside."""
    return relative_path(path, root) or path

"""Code actions: a finding's fix, "Disable RPLxxx for this line", and "Fix all".

Every edit is one `replaylint check --fix` would write: a quick fix is the finding's own
rendered edits (as `apply_edits` takes them in a pass, in the file's line endings), and "Fix
all" runs the command line's `Fixer` over the editor's texts. Unsafe fixes are offered too,
titled "(unsafe)". A suppression comment is placed where `suppress` reads it (a trailing
`# noqa: RPLxxx` in Python, `# replaylint: ignore[RPLxxx]` elsewhere, or a comment line above
the finding or its launch) and offered only where a check of the edited text shows that it
silences the finding and that a comment there changes nothing else. What takes checks (where
a comment goes, "Fix all") runs in a worker process (`analysis`), once for each check of the
document.
"""

from __future__ import annotations

import os
from typing import Any, Awaitable, Callable, Iterable

from lsprotocol import types

from ..edits import apply_edits, with_line_endings
from ..model import Applicability, Edit, Finding, LineIndex
from ..report.run import applicable
from ..run.apply_fixes import Document as FixedDocument
from .analysis import without_bom
from .diagnostics import UNUSED_SUPPRESSION, overlaps
from .positions import EditorText
from .session import Checked, Session

FIX_ALL = f"{types.CodeActionKind.SourceFixAll.value}.replaylint"
KINDS = (types.CodeActionKind.QuickFix.value, FIX_ALL)

Diagnose = Callable[[Finding], types.Diagnostic]
Run = Callable[[Any], Awaitable[Any]]  # a job for a worker -> its value (None when it failed)


class Actions:
    """The code actions of one document, with the session's texts and the client's encoding;
    what takes checks of edited texts (where a comment goes, "Fix all") is a job for a worker."""

    def __init__(self, session: Session, encoding: str, run: Run) -> None:
        self.session = session
        self.encoding = encoding
        self.run = run

    def editor_text(self, text: str) -> EditorText:
        return EditorText(text, self.encoding)

    async def for_range(
        self, uri: str, checked: Checked | None, selection: types.Range, only: Iterable[str] | None, diagnose: Diagnose
    ) -> list[types.CodeAction]:
        """The actions at `selection` in the file `uri` (`checked`: its document's current check)."""
        wanted = list(only or ())

        def asked(kind: str) -> bool:
            return not wanted or any(kind == prefix or kind.startswith(prefix + ".") for prefix in wanted)

        actions: list[types.CodeAction] = []
        if asked(types.CodeActionKind.QuickFix.value):
            for owner, finding in self.session.landing_in(uri):
                shown = diagnose(finding)
                if overlaps(shown.range, selection):
                    fix = self.quick_fix(finding, shown)
                    disable = await self.disable(owner, finding, shown)
                    actions += [action for action in (fix, disable) if action]
        if asked(FIX_ALL) and checked is not None:
            action = await self.fix_all(checked)
            if action is not None:
                actions.append(action)
        return actions

    # edits

    def text_edits(self, text: str, edits: Iterable[Edit]) -> list[types.TextEdit]:
        """The edits `apply_edits` would take in one pass, in the file's line endings."""
        edits = list(edits)
        body = without_bom(text)
        _, skipped = apply_edits(body, edits)
        shown = self.editor_text(text)
        taken = sorted(set(edits) - set(skipped), key=lambda edit: (edit.span.start, edit.span.end))
        return [types.TextEdit(range=shown.range(edit.span), new_text=with_line_endings(edit.content, body)) for edit in taken]

    def workspace_edit(self, edits: Iterable[Edit]) -> types.WorkspaceEdit:
        by_path: dict[str, list[Edit]] = {}
        for edit in edits:
            by_path.setdefault(os.path.abspath(edit.span.path), []).append(edit)
        changes = {self.session.uri_of(path): self.text_edits(self.session.checked_text(path), group) for path, group in by_path.items()}
        return types.WorkspaceEdit(changes=changes)

    # the actions

    def quick_fix(self, finding: Finding, shown: types.Diagnostic) -> types.CodeAction | None:
        if finding.fix is None or not applicable(finding, unsafe=True):
            return None
        unsafe = finding.fix.applicability is Applicability.UNSAFE
        return types.CodeAction(
            title=f"{finding.fix.title} (unsafe)" if unsafe else finding.fix.title,
            kind=types.CodeActionKind.QuickFix,
            diagnostics=[shown],
            is_preferred=not unsafe,
            edit=self.workspace_edit(finding.edits),
        )

    async def disable(self, checked: Checked, finding: Finding, shown: types.Diagnostic) -> types.CodeAction | None:
        """ "Disable RPLxxx for this line", where a worker's checks of the edited text show that
        the comment silences the finding (`analysis.Analysis.placement`)."""
        if finding.code == UNUSED_SUPPRESSION:
            return None
        key = ("disable", finding.code, finding.span, finding.message)
        if key not in checked.memo:  # a few checks each: once per check of the document
            checked.memo[key] = await self.run(self.session.placement_job(checked, finding))
        edit = checked.memo[key]
        if edit is None:
            return None
        return types.CodeAction(
            title=f"Disable {finding.code} for this line",
            kind=types.CodeActionKind.QuickFix,
            diagnostics=[shown],
            edit=self.workspace_edit([edit]),
        )

    async def fix_all(self, checked: Checked) -> types.CodeAction | None:
        """`replaylint check --fix` on the document, from the editor's texts."""
        if not any(applicable(finding, unsafe=False) for finding in checked.findings):
            return None
        if "fix-all" not in checked.memo:
            checked.memo["fix-all"] = await self.run(self.session.fix_all_job(checked)) or []
        fixed_documents: list[FixedDocument] = checked.memo["fix-all"]
        changes = {self.session.uri_of(fixed.path): [self.replacement(fixed)] for fixed in fixed_documents}
        if not changes:
            return None
        return types.CodeAction(title="Fix all replaylint problems", kind=FIX_ALL, edit=types.WorkspaceEdit(changes=changes))

    def replacement(self, fixed: FixedDocument) -> types.TextEdit:
        """One edit turning a document's original text into its fixed text: the lines between
        the unchanged first and last lines."""
        before, after = LineIndex("", fixed.original).lines(), LineIndex("", fixed.text).lines()
        same_start = 0
        while same_start < min(len(before), len(after)) and before[same_start] == after[same_start]:
            same_start += 1
        same_end = 0
        while same_end < min(len(before), len(after)) - same_start and before[-1 - same_end] == after[-1 - same_end]:
            same_end += 1
        start = sum(len(line) for line in before[:same_start])
        end = len(fixed.original) - sum(len(line) for line in before[len(before) - same_end :])
        shown = self.editor_text(("\ufeff" if fixed.bom else "") + fixed.original)
        new_text = "".join(after[same_start : len(after) - same_end])
        return types.TextEdit(range=types.Range(start=shown.position_at(start), end=shown.position_at(end)), new_text=new_text)

"""Code actions: a finding's fix, "Disable RPLxxx for this line", and "Fix all".

Every edit is one `replaylint check --fix` would write: a quick fix is the finding's own
rendered edits (as `apply_edits` takes them in a pass, in the file's line endings), and "Fix
all" runs the command line's `Fixer` over the editor's texts. Unsafe fixes are offered too,
titled "(unsafe)". A suppression comment is placed where `suppress` reads it (a trailing
`# noqa: RPLxxx` in Python, `# replaylint: ignore[RPLxxx]` elsewhere, or a comment line above
the finding or its launch) and offered only where a check of the edited text shows that it
silences the finding and that a comment there changes nothing else.
"""

from __future__ import annotations

import os
from collections import Counter
from typing import Callable, Iterable

from lsprotocol import types

from ..edits import apply_edits, with_line_endings
from ..fixes import Document as FixedDocument, Fixer
from ..model import Applicability, Edit, Finding, LineIndex
from ..report.run import applicable
from ..suppress import suppression_edits
from .diagnostics import UNUSED_SUPPRESSION, overlaps
from .positions import EditorText
from .session import Checked, Session, without_bom

FIX_ALL = f"{types.CodeActionKind.SourceFixAll.value}.replaylint"
KINDS = (types.CodeActionKind.QuickFix.value, FIX_ALL)
PLACEBO_CODE = "RPL999"  # a code no rule reports: a comment naming it suppresses nothing

Diagnose = Callable[[Finding], types.Diagnostic]


class Actions:
    """The code actions of one document, with the session's texts and the client's encoding."""

    def __init__(self, session: Session, encoding: str) -> None:
        self.session = session
        self.encoding = encoding

    def editor_text(self, text: str) -> EditorText:
        return EditorText(text, self.encoding)

    def for_range(self, uri: str, selection: types.Range, only: Iterable[str] | None, diagnose: Diagnose) -> list[types.CodeAction]:
        wanted = list(only or ())

        def asked(kind: str) -> bool:
            return not wanted or any(kind == prefix or kind.startswith(prefix + ".") for prefix in wanted)

        actions: list[types.CodeAction] = []
        if asked(types.CodeActionKind.QuickFix.value):
            for checked, finding in self.session.landing_in(uri):
                shown = diagnose(finding)
                if overlaps(shown.range, selection):
                    actions += [
                        action for action in (self.quick_fix(checked, finding, shown), self.disable(checked, finding, shown)) if action
                    ]
        checked = self.session.checks.get(uri)
        if asked(FIX_ALL) and checked is not None:
            action = self.fix_all(checked)
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

    def quick_fix(self, checked: Checked, finding: Finding, shown: types.Diagnostic) -> types.CodeAction | None:
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

    def disable(self, checked: Checked, finding: Finding, shown: types.Diagnostic) -> types.CodeAction | None:
        if finding.code == UNUSED_SUPPRESSION:
            return None
        key = ("disable", finding.code, finding.span, finding.message)
        if key not in checked.memo:  # a few checks each: once per check of the document
            checked.memo[key] = self.placement(checked, finding)
        edit = checked.memo[key]
        if edit is None:
            return None
        return types.CodeAction(
            title=f"Disable {finding.code} for this line",
            kind=types.CodeActionKind.QuickFix,
            diagnostics=[shown],
            edit=self.workspace_edit([edit]),
        )

    def placement(self, checked: Checked, finding: Finding) -> Edit | None:
        """The first suppression comment that silences `finding` and, when it names no rule,
        leaves every finding as it was (a comment line inside a continued command would end it)."""
        text = without_bom(self.session.checked_text(finding.span.path))

        def findings_with(edit: Edit | None) -> Counter:
            edited, _ = apply_edits(text, [edit] if edit is not None else [])
            found = self.session.findings(checked.document, {os.path.abspath(finding.span.path): edited})
            # an unused suppression's message quotes the comment being edited
            return Counter((f.code, "" if f.code == UNUSED_SUPPRESSION else f.message) for f in found)

        before = findings_with(None)
        key = (finding.code, finding.message)
        for edit in suppression_edits(finding, text, finding.code):
            after = findings_with(edit)
            if after[key] >= before[key] or after - before:
                continue
            if findings_with(Edit(edit.span, edit.content.replace(finding.code, PLACEBO_CODE))) == before:
                return edit
        return None

    def fix_all(self, checked: Checked) -> types.CodeAction | None:
        """`replaylint check --fix` on the document, from the editor's texts."""
        if not any(applicable(finding, unsafe=False) for finding in checked.findings):
            return None
        if "fix-all" not in checked.memo:
            checked.memo["fix-all"] = self.fixed_documents(checked)
        changes = {self.session.uri_of(fixed.path): [self.replacement(fixed)] for fixed in checked.memo["fix-all"]}
        if not changes:
            return None
        return types.CodeAction(title="Fix all replaylint problems", kind=FIX_ALL, edit=types.WorkspaceEdit(changes=changes))

    def fixed_documents(self, checked: Checked) -> list[FixedDocument]:
        fixer = Fixer(self.session.checker(checked.document.path), unsafe=False)
        for document in self.session.documents.values():
            kind = document.kind
            if kind is not None:
                body = without_bom(document.text)
                fixer.documents[os.path.normpath(document.path)] = FixedDocument(
                    document.path, kind, body, body, "utf-8", document.text != body
                )
        fixer.run([checked.document.path])
        for failure in fixer.failures:
            self.session.log(failure, "warning")
        return [fixed for fixed in fixer.documents.values() if fixed.changed]

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

"""`replaylint check --add-noqa`: a suppression comment for every finding left, as ruff's.

Each comment goes where `suppress` reads it and the language server's "Disable for this line"
puts it (`suppress.suppression_edits`: added to a suppression already on the line, at the end
of the line, or alone on the line above): the first place where a check of the edited text
shows that the comment silences the finding and changes nothing else (a comment line inside a
continued shell command would end it). The files are written as `--fix` writes them. A second
run adds nothing: every finding is suppressed by then. In a notebook the comment is Python's
`# noqa: CODE` in the cell's source (as ruff adds it), written into the cell's JSON string by the
notebook frontend's fix machinery.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Iterator
from dataclasses import field, replace

from ..edits import apply_edits
from ..engine.checker import Checker, FileResult
from ..engine.suppression_places import suppression_edits
from ..frontends import kind_for
from ..model import Edit, Finding, LineIndex
from ..records import record
from ..rules import UNPARSABLE_FILE, UNUSED_SUPPRESSION
from ..run.apply_fixes import Fixer

_NOT_SUPPRESSED = (UNPARSABLE_FILE[0], UNUSED_SUPPRESSION[0])  # a broken file, a comment itself


@record
class Added:
    """What `--add-noqa` did: `count` comments in the files `written`; `failures` are findings
    no comment silences, `refused` the files that could not be written (their comments are not
    counted)."""

    count: int = 0
    written: list[str] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)


def add_noqa(checker: Checker, results: list[FileResult], roots: tuple[str, ...] | None) -> Added:
    fixer = Fixer(checker, unsafe=False, roots=roots)
    added = Added()
    per_file: Counter = Counter()
    for result in results:
        for finding in _in_editing_order(result.findings):
            if finding.code in _NOT_SUPPRESSED:
                continue
            suppressed_in = _suppress(fixer, result.path, finding)
            if suppressed_in is not None:
                per_file[suppressed_in] += 1
            else:
                added.failures.append(
                    f"{finding.span.path}:{finding.span.start_line}: no place silences {finding.code} without changing the file's other findings"
                )
    added.written = fixer.write()
    added.count = sum(per_file[path] for path in added.written)
    added.refused = fixer.failures
    return added


def _suppress(fixer: Fixer, launching: str, finding: Finding) -> str | None:
    """Put the first comment that silences `finding` alone into its file's text; the path of
    that file, or None when no comment does."""
    target = fixer.document(finding.span.path)
    if target is None:
        return None
    before = _findings(fixer, launching, {})
    key = (finding.code, finding.message)
    for edit in _places(finding, target.text):
        edited, _ = apply_edits(target.text, [edit])
        after = _findings(fixer, launching, {os.path.normpath(target.path): edited})
        if after[key] < before[key] and not after - before:
            target.text = edited
            return target.path
    return None


def _findings(fixer: Fixer, launching: str, replaced: dict[str, str]) -> Counter:
    """The findings of the launching file with the texts being edited (and `replaced`)."""
    checker = fixer.checker
    checker.overlay = {**{key: document.text for key, document in fixer.documents.items()}, **replaced}
    try:
        document = fixer.document(launching)
        if document is None:
            return Counter()
        text = checker.overlay.get(os.path.normpath(launching), document.text)
        found = checker.check_text(launching, text, document.kind).findings
    finally:
        checker.overlay = {}
    # an unused suppression's message quotes the comment being edited
    return Counter((f.code, "" if f.code == UNUSED_SUPPRESSION[0] else f.message) for f in found)


def _in_editing_order(findings: list[Finding]) -> list[Finding]:
    """A notebook's findings last first: a comment written into a cell's JSON string moves the
    file offsets after it (the findings' spans are those of the text as read), never the lines."""
    return sorted(findings, key=lambda finding: -finding.span.start if _is_notebook(finding.span.path) else 0)


def _is_notebook(path: str) -> bool:
    return kind_for(path) == "notebook"


def _places(finding: Finding, text: str) -> Iterator[Edit]:
    if _is_notebook(finding.span.path):
        yield from _cell_places(finding, text)
    else:
        yield from suppression_edits(finding, text, finding.code)


def _cell_places(finding: Finding, text: str) -> Iterator[Edit]:
    """The places of a comment in the cell's source, read as Python (as `suppress` reads a
    notebook's cells), each written into the file's JSON string."""
    from ..frontends.notebook import _into_file
    from ..frontends.notebook.cell_sources import notebook_of
    from ..source import SourceFile

    path = finding.span.path
    notebook = notebook_of(path, text)
    cell = notebook.cell_at(finding.span.start) if notebook is not None else None
    if cell is None or cell.cell_type != "code":
        return
    python = LineIndex(f"{path}.py", cell.code)
    start, end = cell.from_file(finding.span.start), cell.from_file(min(finding.span.end, cell.file_end))
    in_cell = replace(finding, span=python.span(start, max(start, end)), launch=None)
    source = SourceFile(path, text)
    for edit in suppression_edits(in_cell, cell.code, finding.code):
        if not _after_a_magic(edit.span.start, cell.code):
            yield _into_file(edit, cell, cell.to_file, source)


def _after_a_magic(offset: int, code: str) -> bool:
    """Whether `offset` follows a magic on its line: IPython passes the rest of a magic's line
    to it, comment and all (`%env X=0  # noqa: RPL206` sets X to `0  # noqa: RPL206`)."""
    line_start = code.rfind("\n", 0, offset) + 1
    return offset > line_start and code[line_start:offset].lstrip().startswith("%")

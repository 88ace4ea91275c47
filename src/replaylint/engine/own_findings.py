"""The findings the engine makes itself, of files and comments rather than launches: RPL900 (a
file that cannot be read or parsed), RPL901 (a suppression that silences nothing), RPL902 (a
file or construct not analysed)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the model is imported where findings are made: a warm run makes none
    from ..model import Finding, LineIndex
    from ..source import SourceFile


def unparsable(path: str, message: str, index: LineIndex | None = None, line: int = 1, col: int = 1) -> Finding:
    from ..model import Finding, Message, Span
    from ..rules import UNPARSABLE_FILE

    code, name, _ = UNPARSABLE_FILE
    if index is not None:
        line = max(1, min(line, index.line_count))
        offset = index.offset(line, 1) + max(0, min(col - 1, len(index.line_text(line))))
        span = index.span(offset, offset)
    else:
        span = Span(path, line, col, line, col, 0, 0)
    return Finding(code, name, Message(message), span, "error")


def not_analysed(path: str, message: str, index: LineIndex | None = None, offset: int | None = None) -> Finding:
    """RPL902: the file, or the construct at `offset`, was not analysed."""
    from ..model import Finding, Message, Span
    from ..rules import INCOMPLETE_ANALYSIS

    code, name, _ = INCOMPLETE_ANALYSIS
    if index is None:
        span = Span(path, 1, 1, 1, 1, 0, 0)
    else:
        offset = max(0, min(offset or 0, len(index.text)))
        span = index.span(offset, offset)
    return Finding(code, name, Message("file not fully analysed", message), span, "error")


def unused_suppression(unused: Any, source: SourceFile) -> Finding:
    from ..model import Applicability, Edit, Finding, Fix, Message
    from ..rules import UNUSED_SUPPRESSION

    code, name, _ = UNUSED_SUPPRESSION
    what = f"`{unused.comment}`" if unused.whole else f"`{', '.join(sorted(unused.codes))}` in `{unused.comment}`"
    return Finding(
        code,
        name,
        Message(f"{what} suppresses nothing", "no finding it names is reported here"),
        source.index.span(*unused.directive),
        "warning",
        fix=Fix(Applicability.SAFE, "Remove the unused suppression", ()),
        edits=(Edit(source.index.span(*unused.removal), ""),),
    )

"""A finding as an LSP diagnostic: its span, severity, code with a link to the rule's page,
and the spans it relates to (the setting that turns replay on)."""

from __future__ import annotations

from typing import Callable

from lsprotocol import types

from ..model import Finding, Span, snippet
from ..report.run import DOCS_URL
from .positions import EditorText

SOURCE = "replaylint"
UNUSED_SUPPRESSION = "RPL901"  # shown faded, as editors show unused code
_SEVERITIES = {"error": types.DiagnosticSeverity.Error, "warning": types.DiagnosticSeverity.Warning}

TextOf = Callable[[str], EditorText]  # path -> the text its spans count in
UriOf = Callable[[str], str]  # path -> the URI the client knows it by


def diagnostic(finding: Finding, text_of: TextOf, uri_of: UriOf) -> types.Diagnostic:
    return types.Diagnostic(
        range=text_of(finding.span.path).range(finding.span),
        message=finding.message,
        severity=_SEVERITIES.get(finding.severity, types.DiagnosticSeverity.Error),
        code=finding.code,
        code_description=types.CodeDescription(href=DOCS_URL.format(code=finding.code)),
        source=SOURCE,
        tags=[types.DiagnosticTag.Unnecessary] if finding.code == UNUSED_SUPPRESSION else None,
        related_information=[_related(span, text_of, uri_of) for span in finding.related] or None,
    )


def _related(span: Span, text_of: TextOf, uri_of: UriOf) -> types.DiagnosticRelatedInformation:
    text = text_of(span.path)
    quoted = snippet(text.text[span.start : span.end])
    location = types.Location(uri=uri_of(span.path), range=text.range(span))
    return types.DiagnosticRelatedInformation(location=location, message=f"`{quoted}`" if quoted else "related")


def overlaps(first: types.Range, second: types.Range) -> bool:
    """Whether two ranges share a position (a cursor at either end of a diagnostic counts)."""

    def key(position: types.Position) -> tuple[int, int]:
        return (position.line, position.character)

    return key(first.start) <= key(second.end) and key(second.start) <= key(first.end)

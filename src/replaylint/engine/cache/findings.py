"""Findings as JSON values and back, for the result cache.

A finding is stored with what a report and `--fix` read of it: its words in their parts
(`[subject, verdict, speaker, [conditions], note]`), its span, fix (applicability,
title, intents), related spans, releases, the slim launch `api._slim` keeps (kind, span, label)
and the edits its fix makes. A span is the list `[path, start_line, start_col, end_line,
end_col, start, end]`, an intent `[class name, *fields]`. `decode` checks the type of every value and
raises `Malformed` for anything `encode` would not have made.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any, get_args

from ...model import Applicability, Edit, Finding, Fix, Intent, Launch, LaunchKind, Message, SetSetting, Span

_INTENTS: dict[str, type] = {kind.__name__: kind for kind in get_args(Intent)}  # "SetSetting": SetSetting ...
_SCALARS = (str, int, float, bool, type(None))  # the values an intent may set
_FINDING_KEYS = frozenset({"code", "name", "message", "span", "severity", "fix", "related", "releases", "judged_by", "launch", "edits"})


class Malformed(ValueError):
    """A stored value that `encode` would not have made."""


class Unstorable(ValueError):
    """A finding holding a value JSON cannot keep as it is (the result is then not cached)."""


def encode(finding: Finding) -> dict[str, Any]:
    launch = finding.launch
    return {
        "code": finding.code,
        "name": finding.name,
        "message": _message(finding.words),
        "span": _span(finding.span),
        "severity": finding.severity,
        "fix": None if finding.fix is None else _fix(finding.fix),
        "related": [_span(span) for span in finding.related],
        "releases": list(finding.releases),
        "judged_by": list(finding.judged_by),
        "launch": None if launch is None else {"kind": launch.kind.value, "span": _span(launch.span), "label": launch.label},
        "edits": [[_span(edit.span), edit.content] for edit in finding.edits],
    }


def _message(words: Message) -> list:
    return [words.subject, words.verdict, words.speaker, list(words.conditions), words.note]


def _decode_message(value: object) -> Message:
    if type(value) is not list or len(value) != 5:
        raise Malformed("a message")
    subject, verdict, speaker, conditions, note = value
    return Message(_text(subject), _text(verdict), _text(speaker), tuple(_text(c) for c in _list(conditions)), _text(note))


def _span(span: Span) -> list:
    return [span.path, span.start_line, span.start_col, span.end_line, span.end_col, span.start, span.end]


def _fix(fix: Fix) -> dict[str, Any]:
    intents = []
    for intent in fix.intents:
        values = [getattr(intent, field.name) for field in fields(intent)]
        if not all(type(value) in _SCALARS for value in values):
            raise Unstorable(f"{intent!r} holds a value JSON does not keep")
        intents.append([type(intent).__name__, *values])
    return {"applicability": fix.applicability.value, "title": fix.title, "intents": intents}


def decode(value: object) -> Finding:
    if type(value) is not dict or value.keys() != _FINDING_KEYS:
        raise Malformed("a finding")
    return Finding(
        code=_text(value["code"]),
        name=_text(value["name"]),
        words=_decode_message(value["message"]),
        span=_decode_span(value["span"]),
        severity=_text(value["severity"]),
        fix=None if value["fix"] is None else _decode_fix(value["fix"]),
        related=tuple(_decode_span(span) for span in _list(value["related"])),
        releases=tuple(_text(release) for release in _list(value["releases"])),
        judged_by=tuple(_text(release) for release in _list(value["judged_by"])),
        launch=None if value["launch"] is None else _decode_launch(value["launch"]),
        edits=tuple(_decode_edit(edit) for edit in _list(value["edits"])),
    )


def _decode_span(value: object) -> Span:
    if type(value) is not list or len(value) != 7 or type(value[0]) is not str or any(type(number) is not int for number in value[1:]):
        raise Malformed("a span")
    return Span(*value)


def _decode_fix(value: object) -> Fix:
    if type(value) is not dict or value.keys() != {"applicability", "title", "intents"}:
        raise Malformed("a fix")
    return Fix(
        Applicability(value["applicability"]), _text(value["title"]), tuple(_decode_intent(intent) for intent in _list(value["intents"]))
    )


def _decode_intent(value: object) -> Any:
    if type(value) is not list or not value or type(value[0]) is not str or value[0] not in _INTENTS:
        raise Malformed("an intent")
    kind = _INTENTS[value[0]]
    arguments = value[1:]
    expected = [field.name for field in fields(kind)]
    if len(arguments) != len(expected):
        raise Malformed("an intent")
    for name, argument in zip(expected, arguments):
        if type(argument) not in (_SCALARS if name == "value" and kind is SetSetting else (str,)):
            raise Malformed("an intent")
    return kind(*arguments)


def _decode_launch(value: object) -> Launch:
    if type(value) is not dict or value.keys() != {"kind", "span", "label"}:
        raise Malformed("a launch")
    return Launch(LaunchKind(value["kind"]), _decode_span(value["span"]), {}, label=_text(value["label"]))


def _decode_edit(value: object) -> Edit:
    if type(value) is not list or len(value) != 2:
        raise Malformed("an edit")
    return Edit(_decode_span(value[0]), _text(value[1]))


def _text(value: object) -> str:
    if type(value) is not str:
        raise Malformed("a text")
    return value


def _list(value: object) -> list:
    if type(value) is not list:
        raise Malformed("a list")
    return value

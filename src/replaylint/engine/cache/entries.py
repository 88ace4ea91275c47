"""A result as the cache stores it (JSON values) and gives it back (`Entry`)."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


class Entry:
    """A cached result, as `ResultCache.lookup` gives it back (a plain class: a warm run that
    recalls results need not import `dataclasses`)."""

    __slots__ = ("findings", "notes", "kind", "served")

    def __init__(self, findings: list, notes: list[str], kind: str | None, served: Any = None) -> None:
        self.findings = findings
        self.notes = notes
        self.kind = kind
        self.served = served  # `served.Served`; None: nothing of servers or clients


def entry_of(stored: dict) -> Entry | None:
    """A stored result, or None when its values do not have their types."""
    kind, notes, findings, served = stored.get("kind"), stored.get("notes"), stored.get("findings"), stored.get("served")
    if not (kind is None or type(kind) is str) or type(notes) is not list or type(findings) is not list:
        return None
    if not all(type(note) is str for note in notes):
        return None
    try:
        return Entry(_decoded_findings(findings), notes, kind, _decoded_served(served))
    except ValueError:
        return None


def _decoded_findings(findings: list) -> list:
    if not findings:
        return []
    from .findings import decode

    return [decode(finding) for finding in findings]


def encoded_served(served: Any) -> dict | None:
    """None for a file that says nothing of servers or clients (most)."""
    if not served:
        return None
    from .served_json import encode

    return encode(served)


def _decoded_served(value: object) -> Any:
    if value is None:
        return None
    from .served_json import decode

    return decode(value)

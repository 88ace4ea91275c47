"""How a message spells a framework's default that stands in for a request key the launch does not
write: whose default it is, and, when a file of the checked tree writes it (a fork's rollout.yaml or
config.py), that file and line."""

from __future__ import annotations

from typing import Any

from ..model import snippet
from ..records import record

_QUOTED = 60  # the characters a message quotes (`Setting.quoted`)


@record(frozen=True)
class WrittenDefault:
    """A default written in the framework's own file in the checked tree: the framework's name
    and the file as the framework's repository names it (`verl/trainer/config/rollout/rollout.yaml`)."""

    framework: str
    path: str
    line: int

    def __str__(self) -> str:
        return f"{self.framework}'s default, {self.path}:{self.line}"


def default_spelling(prefix: tuple[str, ...], key: str, default: Any, owner: str, place: WrittenDefault | None = None) -> str:
    """`rollout.val_kwargs.top_k=-1 (verl 0.9.1's default)`, or with the file and line that write it
    (`rollout.val_kwargs.temperature=0 (verl's default, verl/trainer/config/rollout/rollout.yaml:145)`):
    leading sections are dropped until it fits the characters a message quotes, so the owner stays
    in view; a place, one word, is kept whole by the quote when it starts within them."""
    whose = f"{owner}'s default" if place is None else str(place)
    parts = list(prefix)
    while True:
        text = f"{'.'.join([*parts, key])}={default} ({whose})"
        fits = len(text) <= _QUOTED if place is None else snippet(text, _QUOTED) == text
        if fits or len(parts) <= (1 if place is None else 0):
            return text
        parts.pop(0)

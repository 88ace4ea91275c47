"""Where the script being read sits in the file, and how words are quoted there.

The file itself is read as it is. A script inside a string (`bash -c '...'`, a heredoc fed to
`bash`, a Dockerfile `RUN`, a YAML `command: [sh, -c, ...]`) is parsed on its own; `Place`
maps its offsets back into the file and knows the quoting layers an edit must pass through.
Parts of such a script the outer shell fills in and we cannot read (`"... $UNSET ..."`) are
replaced by a placeholder word and remembered as unknown.
"""

from __future__ import annotations

import re
from dataclasses import field
from itertools import accumulate
from typing import Callable

from ...records import record
from ...source import Budget
from .grammar import Parsed
from .values import Hole

_SAFE_WORD = re.compile(r"^[A-Za-z0-9_@%+=:,./-]+$")
_PLACEHOLDER = re.compile(r"__replaylint_unknown_\d+__")


def shell_quote(word: str) -> str:
    """A word as bash reads it back: bare when safe, else single-quoted."""
    if _SAFE_WORD.match(word):
        return word
    return "'" + word.replace("'", "'\\''") + "'"


def is_plain(text: str) -> bool:
    """Text that means the same in every quoting context (bare, "...", '...', heredoc)."""
    return all(_SAFE_WORD.match(part) for part in text.split()) if text.strip() else True


# How text must be escaped to land unchanged inside each kind of quoted container.
_ESCAPES: dict[str, Callable[[str], str]] = {
    "dq": lambda text: re.sub(r'([\\"$`])', r"\\\1", text),
    "sq": lambda text: text.replace("'", "'\\''"),
    "heredoc": lambda text: re.sub(r"([\\$`])", r"\\\1", text),
    "heredoc-literal": lambda text: text,
}


def _escape(layer: object, text: str) -> str:
    """A layer is the kind of a quoted container ("dq", "sq", ...) or a host format's escape."""
    if callable(layer):
        return layer(text)
    return _ESCAPES[layer](text) if layer in _ESCAPES else text


def quoting(layers: tuple) -> Callable[[str], str]:
    """The quote function for words written inside `layers` (outermost first)."""

    def quote(word: str) -> str:
        text = shell_quote(word)
        for layer in reversed(layers):
            text = _escape(layer, text)
        return text

    return quote


@record
class Place:
    """The text a `Parsed` was made from and its place in the file.

    `starts[i]`/`ends[i]` are the file offsets of script character i (None: the identity),
    `regions[i]` says which piece of the file it came from (characters of one region are in
    file order), `unknown[i]` marks placeholder characters, and `stands_for` maps a placeholder
    to the outer shell's unknown it replaced (`${X:+NAME=$X}`). `layers` are the quoting
    contexts around the script (outermost first); `outer` is the file span to fall back on.
    `budget` is the file's (`source.Budget`): reading the script's words charges it.
    """

    parsed: Parsed
    starts: list[int] | None = None
    ends: list[int] | None = None
    regions: list[int] | None = None
    unknown_before: list[int] | None = None  # prefix sums of placeholder characters
    layers: tuple = ()
    outer: tuple[int, int] | None = None
    depth: int = 0
    budget: Budget = field(default_factory=Budget)
    stands_for: dict[str, Hole] = field(default_factory=dict)
    elsewhere: frozenset[int] = frozenset()  # regions of values written at another place (not edited from here)

    @property
    def text(self) -> str:
        return self.parsed.text

    def range(self, start: int, end: int) -> tuple[int, int]:
        """File offsets of script offsets [start, end)."""
        if self.starts is None or self.ends is None:
            return start, end
        if end <= start:
            position = self.starts[start] if start < len(self.starts) else (self.ends[-1] if self.ends else 0)
            return position, position
        first, last = self.starts[start], self.ends[end - 1]
        if self.regions is not None and not self._one_region(start, end):
            return self.outer or (first, max(first, last))
        if last < first:
            return self.outer or (first, first)
        return first, last

    def _one_region(self, start: int, end: int) -> bool:
        assert self.regions is not None
        region = self.regions[start]
        return all(self.regions[i] == region for i in range(start + 1, end))

    def exact(self, start: int, end: int) -> bool:
        """Whether script text [start, end) is the file text of its range, character for character."""
        if self.starts is None:
            return True
        if self.unknown(start, end) or (self.elsewhere and self.regions is not None and self.regions[start] in self.elsewhere):
            return False
        first, last = self.range(start, end)
        return last - first == end - start and (self.regions is None or self._one_region(start, end)) if end > start else True

    def written_elsewhere(self) -> frozenset[tuple[int, int]]:
        """The file spans of the values the outer shell put into this script from where they are written."""
        if not self.elsewhere or self.regions is None or self.starts is None or self.ends is None:
            return frozenset()
        return frozenset((self.starts[i], self.ends[i]) for i, region in enumerate(self.regions) if region in self.elsewhere)

    def unknown(self, start: int, end: int) -> bool:
        if self.unknown_before is None:
            return False
        return self.unknown_before[end] - self.unknown_before[start] > 0

    def pieces(self, start: int, end: int) -> list[tuple[int, int]]:
        """Script text [start, end) cut at its placeholders (each a piece of its own)."""
        if not self.unknown(start, end):
            return [(start, end)]
        found: list[tuple[int, int]] = []
        cursor = start
        for match in _PLACEHOLDER.finditer(self.text, start, end):
            if match.start() > cursor:
                found.append((cursor, match.start()))
            found.append((match.start(), match.end()))
            cursor = match.end()
        if cursor < end:
            found.append((cursor, end))
        return found

    def outer_text(self, text: str) -> str:
        """Script text as the outer shell wrote it: each placeholder back to its expansion."""
        if not self.stands_for or "__replaylint_unknown_" not in text:
            return text
        return _PLACEHOLDER.sub(
            lambda match: self.stands_for[match.group()].raw if match.group() in self.stands_for else match.group(), text
        )


def identity(parsed: Parsed) -> Place:
    return Place(parsed)


def mapped(parsed: Parsed, to_offset: Callable[[int], int], layers: tuple = ()) -> Place:
    """A script whose offset i sits at `to_offset(i)` in the file (monotone, 0..len inclusive)."""
    size = len(parsed.text)
    bounds = [to_offset(i) for i in range(size + 1)]
    return Place(parsed, bounds[:-1], bounds[1:], None, None, layers, (bounds[0], bounds[-1]))


@record
class Assembled:
    """A script put together from pieces of the file (the value of a quoted word)."""

    text: str
    starts: list[int]
    ends: list[int]
    regions: list[int]
    unknown: list[bool]
    stands_for: dict[str, Hole]
    elsewhere: frozenset[int] = frozenset()

    def place(self, parsed: Parsed, layers: tuple, outer: tuple[int, int], depth: int) -> Place:
        unknown_before = [0, *accumulate(1 if flag else 0 for flag in self.unknown)]
        return Place(
            parsed,
            self.starts,
            self.ends,
            self.regions,
            unknown_before,
            layers,
            outer,
            depth,
            stands_for=self.stands_for,
            elsewhere=self.elsewhere,
        )


class Builder:
    """Collects script text with the file offsets each character came from."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.starts: list[int] = []
        self.ends: list[int] = []
        self.regions: list[int] = []
        self.unknown: list[bool] = []
        self.stands_for: dict[str, Hole] = {}
        self.elsewhere: set[int] = set()
        self.holes = 0

    def exact(self, text: str, start: int, region: int) -> None:
        self.parts.append(text)
        self.starts.extend(range(start, start + len(text)))
        self.ends.extend(range(start + 1, start + len(text) + 1))
        self.regions.extend([region] * len(text))
        self.unknown.extend([False] * len(text))

    def approximate(self, text: str, start: int, end: int, region: int) -> None:
        """Text that stands for file text [start, end) as a whole (an escape, a variable)."""
        self.parts.append(text)
        self.starts.extend([start] * len(text))
        self.ends.extend([end] * len(text))
        self.regions.extend([region] * len(text))
        self.unknown.extend([False] * len(text))

    def written_elsewhere(self, text: str, start: int, end: int, region: int) -> None:
        """A value the outer shell put here from where it is written (file text [start, end)): its
        findings sit there, and no edit is made there from this script (another quoting, other uses)."""
        self.approximate(text, start, end, region)
        self.elsewhere.add(region)

    def hole(self, start: int, end: int, region: int, unknown: Hole | None = None) -> None:
        """Text the outer shell fills in that we cannot know (`unknown`, when it is an
        expansion): a placeholder word."""
        self.holes += 1
        text = f"__replaylint_unknown_{self.holes}__"
        if unknown is not None:
            self.stands_for[text] = unknown
        self.parts.append(text)
        self.starts.extend([start] * len(text))
        self.ends.extend([end] * len(text))
        self.regions.extend([region] * len(text))
        self.unknown.extend([True] * len(text))

    def build(self) -> Assembled:
        return Assembled(
            "".join(self.parts), self.starts, self.ends, self.regions, self.unknown, self.stands_for, frozenset(self.elsewhere)
        )

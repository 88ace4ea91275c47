"""Shell scripts put together from another file (a make or just recipe, a systemd `ExecStart=`, a
`Procfile` line, a tox `commands` line), with each character's place in that file, and the
environment they run in."""

from __future__ import annotations

from dataclasses import field, replace
from typing import Callable, Iterable

from ..model import Assumption, Edit, Fix, Launch, Setting, Span, VersionHint
from ..records import record
from ..source import ExtractContext, SourceFile


@record
class Expanded:
    """Text put together from the file: each character's file offset (`starts`) and the offset
    after it (`ends`), and where it ends (`end`, the offset after the last piece). `regions`:
    which place of the file each character came from (0: the command's own text; a value written
    elsewhere and substituted as it is, its own), or None while all are the command's own."""

    parts: list[str] = field(default_factory=list)
    starts: list[int] = field(default_factory=list)
    ends: list[int] = field(default_factory=list)
    end: int = 0
    holes: int = 0
    regions: list[int] | None = None

    def exact(self, text: str, start: int) -> None:
        self._add(text, range(start, start + len(text)), range(start + 1, start + len(text) + 1), 0)
        self.end = start + len(text)

    def standing_for(self, text: str, start: int, end: int) -> None:
        """Text that stands for file text [start, end) as a whole (a substituted variable)."""
        self._add(text, [start] * len(text), [start] * (len(text) - 1) + [end] if text else [], 0)
        self.end = end

    def written_at(self, text: str, start: int, end: int) -> None:
        """Text substituted for file text [.., end) that is, character for character, the file
        text at `start` (a variable's value written on its own line): findings and edits go there."""
        if self.regions is None:
            self.regions = [0] * len(self.starts)
        self._add(text, range(start, start + len(text)), range(start + 1, start + len(text) + 1), max(self.regions, default=0) + 1)
        self.end = end

    def extend(self, other: Expanded) -> None:
        """`other`'s text after this one's (its own regions kept apart)."""
        if other.regions is not None and self.regions is None:
            self.regions = [0] * len(self.starts)
        if self.regions is not None:
            shift = max(self.regions, default=0)
            self.regions += [region + shift if region else 0 for region in other.regions or [0] * len(other.starts)]
        self.parts += other.parts
        self.starts += other.starts
        self.ends += other.ends
        self.end = other.end

    def _add(self, text: str, starts: Iterable[int], ends: Iterable[int], region: int) -> None:
        self.parts.append(text)
        self.starts.extend(starts)
        self.ends.extend(ends)
        if self.regions is not None:
            self.regions.extend([region] * len(text))

    def unknown(self, start: int, end: int, one_word: bool = False) -> None:
        """A value the file does not decide: a shell variable nothing sets, which unquoted may
        be any number of words (`one_word`: a value known to be one word, written in double
        quotes; for text outside quotes)."""
        self.holes += 1
        name = f"${{__replaylint_unknown_{self.holes}}}"
        self.standing_for(f'"{name}"' if one_word else name, start, end)

    @property
    def text(self) -> str:
        return "".join(self.parts)

    def to_offset(self, index: int) -> int:
        return self.starts[index] if index < len(self.starts) else self.end

    def pieces(self) -> tuple[list[int], list[int], list[int]] | None:
        """`(starts, ends, regions)` for the shell reader, when a piece is written elsewhere."""
        return None if self.regions is None else (self.starts, self.ends, self.regions)


@record(unsafe_hash=True)
class Script:
    """A shell script another file runs (a recipe, a unit's `ExecStart=`, a Procfile line, a tox
    command), with the environment that program gives it."""

    expanded: Expanded
    env: dict[str, Setting]
    assumptions: tuple[Assumption, ...] = ()
    env_open: bool = False  # a file replaylint does not read may add to it (`include`, `set dotenv-load`, `EnvironmentFile=`)
    version_hint: VersionHint | None = None  # the release the script runs with (an Apptainer image's `From:`)


def launches_of(scripts: Iterable[Script], source: SourceFile, context: ExtractContext, escape: Callable[[str], str]) -> list[Launch]:
    """The launches of each script, read by the shell interpreter with their places in `source`
    (`escape`: how text written into a script is escaped for the host file)."""
    try:
        from .shell import extract_script
    except ImportError:  # the shell interpreter is optional
        return []
    launches: list[Launch] = []
    for script in scripts:
        expanded = script.expanded
        found = extract_script(
            expanded.text,
            source,
            context,
            to_offset=expanded.to_offset,
            env=script.env,
            escape=escape,
            pieces=expanded.pieces(),
            version_hint=script.version_hint,
        )
        if script.assumptions:
            found = [_assuming(launch, script.assumptions, (expanded.to_offset(0), expanded.end)) for launch in found]
        if script.env_open:
            found = [replace(launch, env_open=True) for launch in found]
        launches += found
    return launches


def _assuming(launch: Launch, assumptions: tuple[Assumption, ...], script: tuple[int, int]) -> Launch:
    """The assumptions of the script that touch the launch: those at its words, and those outside
    the script's text (a value written elsewhere: only a finding placed there meets it)."""
    kept = tuple(
        a for a in assumptions if a.span is None or _within(a.span, launch.span.start, launch.span.end) or not _within(a.span, *script)
    )
    return replace(launch, assumptions=launch.assumptions + kept) if kept else launch


def _within(span: Span, start: int, end: int) -> bool:
    return start <= span.start and span.end <= end


def parses(text: str) -> bool:
    """Read leniently (the host program, make, just, systemd, tox, is the judge): any text reads."""
    return True


def render_outside(launch: Launch, fix: Fix, source: SourceFile, substituted: Callable[[str, int, int], bool]) -> list[Edit] | None:
    """The shell interpreter's edits, unless one touches text the host program substitutes
    (`substituted(text, start, end)`: a variable reference, a specifier)."""
    from .shell import render

    edits = render(launch, fix, source)
    if edits and any(edit.span.path == source.path and substituted(source.text, edit.span.start, edit.span.end) for edit in edits):
        return None
    return edits

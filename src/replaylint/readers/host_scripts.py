"""Shell scripts put together from another file (a make or just recipe, a systemd `ExecStart=`, a
`Procfile` line, a tox `commands` line), with each character's place in that file, and the
environment they run in."""

from __future__ import annotations

from dataclasses import field, replace
from typing import Callable, Iterable

from ..model import Assumption, Edit, Fix, Launch, Setting
from ..records import record
from ..source import ExtractContext, SourceFile


@record
class Expanded:
    """Text put together from the file: each character's file offset (`starts`), and where it
    ends (`end`, the offset after the last piece)."""

    parts: list[str] = field(default_factory=list)
    starts: list[int] = field(default_factory=list)
    end: int = 0
    holes: int = 0

    def exact(self, text: str, start: int) -> None:
        self.parts.append(text)
        self.starts.extend(range(start, start + len(text)))
        self.end = start + len(text)

    def standing_for(self, text: str, start: int, end: int) -> None:
        """Text that stands for file text [start, end) as a whole (a substituted variable)."""
        self.parts.append(text)
        self.starts.extend([start] * len(text))
        self.end = end

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


@record(unsafe_hash=True)
class Script:
    """A shell script another file runs (a recipe, a unit's `ExecStart=`, a Procfile line, a tox
    command), with the environment that program gives it."""

    expanded: Expanded
    env: dict[str, Setting]
    assumptions: tuple[Assumption, ...] = ()
    env_open: bool = False  # a file replaylint does not read may add to it (`include`, `set dotenv-load`, `EnvironmentFile=`)


def launches_of(scripts: Iterable[Script], source: SourceFile, context: ExtractContext, escape: Callable[[str], str]) -> list[Launch]:
    """The launches of each script, read by the shell interpreter with their places in `source`
    (`escape`: how text written into a script is escaped for the host file)."""
    try:
        from .shell import extract_script
    except ImportError:  # the shell interpreter is optional
        return []
    launches: list[Launch] = []
    for script in scripts:
        found = extract_script(script.expanded.text, source, context, to_offset=script.expanded.to_offset, env=script.env, escape=escape)
        if script.assumptions:
            found = [_assuming(launch, script.assumptions) for launch in found]
        if script.env_open:
            found = [replace(launch, env_open=True) for launch in found]
        launches += found
    return launches


def _assuming(launch: Launch, assumptions: tuple[Assumption, ...]) -> Launch:
    kept = tuple(a for a in assumptions if a.span is None or (launch.span.start <= a.span.start and a.span.end <= launch.span.end))
    return replace(launch, assumptions=launch.assumptions + kept) if kept else launch


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

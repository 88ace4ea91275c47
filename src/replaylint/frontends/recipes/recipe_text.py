"""What the make and just readers hand the recipes frontend: a recipe's shell text put together
from the file, with each character's place in it, and the environment it runs in."""

from __future__ import annotations

from dataclasses import dataclass, field

from ...model import Assumption, Setting


@dataclass
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

    def unknown(self, start: int, end: int) -> None:
        """A value the file does not decide: a shell variable nothing sets."""
        self.holes += 1
        self.standing_for(f"${{__replaylint_unknown_{self.holes}}}", start, end)

    @property
    def text(self) -> str:
        return "".join(self.parts)

    def to_offset(self, index: int) -> int:
        return self.starts[index] if index < len(self.starts) else self.end


@dataclass(frozen=True)
class Script:
    """A shell script a recipe runs, with the environment make or just gives it."""

    expanded: Expanded
    env: dict[str, Setting]
    assumptions: tuple[Assumption, ...] = ()
    env_open: bool = False  # a file replaylint does not read may add to it (`include`, `set dotenv-load`)

"""What a frontend is given and what it may raise: the file (`SourceFile`), what it may ask of
the run (`ExtractContext`), and the two ways it stops (`ParseError`, `NeedsHeavyParser`).
Every layer that reads or writes a file's text takes these from here."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable

if TYPE_CHECKING:
    from .model import LineIndex


class ParseError(Exception):
    """The file is not valid in its language; `line`/`col` are 1-based when known."""

    def __init__(self, message: str, line: int = 1, col: int = 1) -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.col = col


class NeedsHeavyParser(Exception):
    """Raised by a frontend asked to stay light (`ExtractContext.light`) for a file that needs a
    parser this process has not imported (libcst): another process will check the file, given
    `prepared` (what the light pass already worked out: the Python focus) as
    `ExtractContext.prepared`."""

    def __init__(self, prepared: str) -> None:
        super().__init__("needs libcst")
        self.prepared = prepared


@dataclass
class SourceFile:
    path: str
    text: str
    index: LineIndex = field(init=False)

    def __post_init__(self) -> None:
        from .model import LineIndex  # imported when a file is read: a clean run never needs it

        self.index = LineIndex(self.path, self.text)


@dataclass
class ExtractContext:
    """What a frontend may ask of the run: other files (a `--config` YAML), the project root."""

    read_text: Callable[[str], str | None] = lambda path: None
    root: str = "."
    light: bool = False  # do not import libcst: raise NeedsHeavyParser instead
    prepared: str | None = None  # NeedsHeavyParser.prepared from a light pass over the same bytes

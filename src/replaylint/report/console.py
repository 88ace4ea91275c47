"""What a check says on stderr besides the report: errors, warnings and notes, one line each.

Every message is escaped (`printable`): it quotes paths and launch lines from the checked tree,
which may hold line breaks and CI runner commands. `--quiet` and `--silent` drop the notes,
those of every module (the cache prints its own), so they are dropped where they are written.
"""

from __future__ import annotations

import sys
from contextlib import contextmanager
from typing import Iterator, TextIO

from .printable import printable

NOTE = "replaylint: note: "


def error(message: str) -> None:
    print(f"replaylint: error: {printable(message)}", file=sys.stderr)


def warning(message: str) -> None:
    print(f"replaylint: warning: {printable(message)}", file=sys.stderr)


def note(message: str) -> None:
    print(f"{NOTE}{printable(message)}", file=sys.stderr)


def verbose(configuration: str, checked: list[str], seconds: float) -> None:
    """`--verbose`: the configuration used, each file checked, and the time the checks took."""
    files = "file" if len(checked) == 1 else "files"
    for line in (
        f"configuration: {configuration}",
        *(f"checked: {path}" for path in checked),
        f"checked {len(checked)} {files} in {seconds * 1000:.0f} ms",
    ):
        print(f"replaylint: debug: {printable(line)}", file=sys.stderr)


@contextmanager
def notes_dropped(quiet: bool) -> Iterator[None]:
    """While in the block, a quiet run's stderr passes on every line but the notes."""
    if not quiet:
        yield
        return
    stream = sys.stderr
    filtered = _WithoutNotes(stream)
    sys.stderr = filtered  # type: ignore[assignment]
    try:
        yield
    finally:
        sys.stderr = stream
        filtered.write("\n" if filtered.pending else "")


class _WithoutNotes:
    """A text stream that passes whole lines on, except those starting with `NOTE`."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream
        self._line = ""

    @property
    def pending(self) -> bool:
        return bool(self._line)

    def write(self, text: str) -> int:
        *lines, self._line = (self._line + text).split("\n")
        for line in lines:
            if not line.startswith(NOTE):
                self._stream.write(line + "\n")
        return len(text)

    def flush(self) -> None:
        self._stream.flush()

    def __getattr__(self, name: str):
        return getattr(self._stream, name)

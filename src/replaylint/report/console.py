"""What a check says on stderr besides the report: errors, warnings and notes, one line each.

Every message is escaped (`printable`): it quotes paths and launch lines from the checked tree,
which may hold line breaks and CI runner commands. `--quiet` and `--silent` drop the notes: the
check command says them through its own `_note`, and hands that to the result cache.
"""

from __future__ import annotations

import sys

from .printable import printable

NOTE = "replaylint: note: "
_said = 0  # lines said on stderr (`said_lines`)


def error(message: str) -> None:
    _say(f"replaylint: error: {printable(message)}")


def warning(message: str) -> None:
    _say(f"replaylint: warning: {printable(message)}")


def note(message: str) -> None:
    _say(f"{NOTE}{printable(message)}")


def _say(line: str) -> None:
    global _said
    _said += 1
    print(line, file=sys.stderr)


def said_lines() -> int:
    """How many lines were said on stderr: a report given again must not leave one out (`cli.given_again`)."""
    return _said


def verbose(configuration: str, checked: list[str], seconds: float) -> None:
    """`--verbose`: the configuration used, each file checked, and the time the checks took."""
    files = "file" if len(checked) == 1 else "files"
    for line in (
        f"configuration: {configuration}",
        *(f"checked: {path}" for path in checked),
        f"checked {len(checked)} {files} in {seconds * 1000:.0f} ms",
    ):
        _say(f"replaylint: debug: {printable(line)}")

"""What a check says on stderr besides the report: errors, warnings and notes, one line each.

Every message is escaped (`printable`): it quotes paths and launch lines from the checked tree,
which may hold line breaks and CI runner commands. `--quiet` and `--silent` drop the notes: the
check command says them through its own `_note`, and hands that to the result cache.
"""

from __future__ import annotations

import sys

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

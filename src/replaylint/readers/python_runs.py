"""A Python program as a command line runs it (`python -m pkg.main`, `python3 -u tools/gen.py`), and
what one variable of its environment holds there: the shared record of the readers that find such
runs (`shell.program_runs` in scripts, `deployed_programs` in compose and Kubernetes files)."""

from __future__ import annotations

import re

from ..records import record

_PYTHON = re.compile(r"python(?:3(?:\.\d+)?)?")
# Options of python that take a value (`-X dev`, `-W ignore`); the others stand alone (`-u`, `-B`).
_VALUED = frozenset(("-X", "-W", "-Q"))


@record(unsafe_hash=True)
class ProgramRun:
    """`module` (after `-m`) or `path` (a script, as written) the command runs; `value`, the
    variable's text there (None: not known); `offset`, where the command is written."""

    module: str | None
    path: str | None
    value: str | None
    offset: int


def program_target(words: list[str | None]) -> tuple[str | None, str | None] | None:
    """(module, None) of `-m MODULE`, (None, path) of `FILE.py`: what python's arguments `words`
    run; None for `-c` or a word not known."""
    position = 0
    while position < len(words):
        text = words[position]
        if text is None or text == "-c":
            return None
        if text == "-m":
            module = words[position + 1] if position + 1 < len(words) else None
            return (module, None) if module else None
        if text.startswith("-m") and len(text) > 2:
            return text[2:], None
        if not text.startswith("-"):
            return (None, text) if text.endswith(".py") else None
        position += 2 if text in _VALUED else 1
    return None


def is_python(word: str) -> bool:
    """Whether a command's first word is a Python interpreter (`python3`, `/usr/bin/python3.11`)."""
    return _PYTHON.fullmatch(word.rpartition("/")[2]) is not None

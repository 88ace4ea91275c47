"""A Python program as a command line runs it (`python -m pkg.main`, `python3 -u tools/gen.py`), and
what one variable of its environment holds there: the shared record of the readers that find such
runs (`shell.program_runs` in scripts, `justfile_runs` in justfiles, `deployed_programs` in compose
and Kubernetes files), and the reading of the command's words they share."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from types import MappingProxyType

from ..model import Span
from ..records import record

_PYTHON = re.compile(r"python(?:3(?:\.\d+)?)?")
# Options of python that take a value (`-X dev`, `-W ignore`); the others stand alone (`-u`, `-B`).
_VALUED = frozenset(("-X", "-W", "-Q"))
_PREFIXES = frozenset(("nohup", "time", "exec", "stdbuf"))
_RUNNERS = frozenset(("uv", "poetry", "pdm", "pipenv", "hatch", "rye"))
_NONE: Mapping[str, str] = MappingProxyType({})


@record(unsafe_hash=True)
class ProgramRun:
    """`module` (after `-m`) or `path` (a script, as written) the command runs, both None for a run
    of any program (a file or a line not read); `value`, the variable's text there (None: not
    known); `at`, where that value is written (an export, a prefix, an `environment` entry)."""

    module: str | None
    path: str | None
    value: str | None
    at: Span | None = None


ANY_RUN = ProgramRun(None, None, None)  # a run of any program with anything


def python_command(words: Sequence[str | None], scripts: Mapping[str, str] = _NONE) -> tuple[dict[str, str], str | None, str | None] | None:
    """(the `NAME=V` the line gives, module, path) of a command that runs python behind `NAME=V`
    prefixes, `nohup`, `env NAME=V`, `uv run` (`words` as written; None for a word not known);
    None for another command, or python run another way (`-c`, a word not known). `scripts`: the
    commands a project installs that run a module of it (`alpaca_eval` of `alpaca_eval.main:main`), by name."""
    read = _read_command(words, scripts)
    return read[:3] if read is not None else None


def program_arguments(words: Sequence[str | None], scripts: Mapping[str, str] = _NONE) -> int | None:
    """Where the program's own arguments start in a command `python_command` reads (the word
    after `FILE.py`, `-m MODULE` or one of `scripts`); None for another command."""
    read = _read_command(words, scripts)
    return read[3] if read is not None else None


def _read_command(words: Sequence[str | None], scripts: Mapping[str, str]) -> tuple[dict[str, str], str | None, str | None, int] | None:
    given: dict[str, str] = {}
    position = _assignments(words, 0, given)
    while position < len(words) and words[position] in _PREFIXES:
        position += 1
    if position < len(words) and words[position] == "env":
        position = _assignments(words, position + 1, given)
    if position + 1 < len(words) and words[position] in _RUNNERS and words[position + 1] == "run":
        position += 2
    head = words[position] if position < len(words) else None
    if head in scripts:
        return given, scripts[head], None, position + 1
    target = program_target(words[position + 1 :]) if head is not None and is_python(head) else None
    return (given, target[0], target[1], position + 1 + target[2]) if target is not None else None


def _assignments(words: Sequence[str | None], position: int, given: dict[str, str]) -> int:
    while position < len(words):
        key, equals, value = (words[position] or "").partition("=")
        if not (equals and key.isidentifier()):
            break
        given[key] = value
        position += 1
    return position


def program_target(words: Sequence[str | None]) -> tuple[str | None, str | None, int] | None:
    """(module, None, N) of `-m MODULE`, (None, path, N) of `FILE.py`: what python's arguments
    `words` run, the program's own arguments from `words[N]` on; None for `-c` or a word not known."""
    position = 0
    while position < len(words):
        text = words[position]
        if text is None or text == "-c":
            return None
        if text == "-m":
            module = words[position + 1] if position + 1 < len(words) else None
            return (module, None, position + 2) if module else None
        if text.startswith("-m") and len(text) > 2:
            return text[2:], None, position + 1
        if not text.startswith("-"):
            return (None, text, position + 1) if text.endswith(".py") else None
        position += 2 if text in _VALUED else 1
    return None


def is_python(word: str) -> bool:
    """Whether a command's first word is a Python interpreter (`python3`, `/usr/bin/python3.11`)."""
    return _PYTHON.fullmatch(word.rpartition("/")[2]) is not None

"""Recipes frontend: vLLM launches in Makefile and justfile recipes (`make serve`, `just serve`).

Each recipe line is a shell script (one shell per line, as make and just run them, unless
`.ONESHELL:` or a shebang recipe makes the recipe one script), read by the shell interpreter
(`readers.shell.extract_script`) with its place in the file, as a Dockerfile's `RUN` bodies are.
Before the shell sees a line, make and just substitute their own variables into its text; so
does this reader (`make`, `just`), and every character keeps the file offset it came from (a
substituted value, the offsets of the reference that produced it).

A value the file does not decide (a variable the file never sets; `$(shell ...)`; a recipe
parameter without a default) is an unknown word for the shell, so the launch is open-ended. A
just parameter's default and make's `VAR ?= value` are what the recipe runs with as written,
and a finding that rests on one says so (an `Assumption`).

Fixes edit the recipe line in place (its tab kept); a fix that would write into a variable
reference (`$(ARGS)`, `{{args}}`) is not offered, and text written is escaped for make (`$$`)
or just (`{{{{`).

Why not a grammar: tree-sitter-make (PyPI 1.1.1) reads make's syntax but not its expansion,
which is what decides the words; there is no just grammar on PyPI. The readers here follow the
GNU make manual (3.1.1 Splitting Long Lines, 5.1 Recipe Syntax, 6 How to Use Variables) and
just's manual (Recipe Parameters, Variables and Substitution, Settings).
"""

from __future__ import annotations

import re
from typing import Callable

from ...model import Edit, Fix, Launch
from ...readers.host_scripts import Expanded, Script, launches_of, parses, render_outside
from ...source import ExtractContext, SourceFile

__all__ = ["Expanded", "Script", "extract", "parses", "render"]

_REFERENCE = re.compile(r"\$\$|\$[({]|\{\{\{\{|\{\{")


def extract(source: SourceFile, context: ExtractContext) -> list[Launch]:
    context.budget.charge(len(source.text))
    return launches_of(_reader(source.path)(source), source, context, _escape_for(source.path))


def _is_justfile(path: str) -> bool:
    name = path.replace("\\", "/").rsplit("/", 1)[-1].lower()
    return name in ("justfile", ".justfile") or name.endswith(".just")


def _reader(path: str) -> Callable[[SourceFile], list[Script]]:
    if _is_justfile(path):
        from ...readers.justfiles import scripts
    else:
        from .make import scripts
    return scripts


def _escape_for(path: str) -> Callable[[str], str]:
    if _is_justfile(path):
        return lambda text: text.replace("{{", "{{{{")
    return lambda text: text.replace("$", "$$")


def render(launch: Launch, fix: Fix, source: SourceFile) -> list[Edit] | None:
    """The shell interpreter's edits, unless one writes into a variable reference."""
    return render_outside(launch, fix, source, _in_reference)


def _in_reference(text: str, start: int, end: int) -> bool:
    """Whether [start, end) touches a `$(...)`, `${...}` or `{{...}}` of its line."""
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", end)
    line_end = len(text) if line_end < 0 else line_end
    for match in _REFERENCE.finditer(text, line_start, line_end):
        if match.group() in ("$$", "{{{{"):
            continue
        close = "}}" if match.group() == "{{" else (")" if match.group().endswith("(") else "}")
        stop = text.find(close, match.end(), line_end)
        stop = line_end if stop < 0 else stop + len(close)
        if match.start() < max(end, start + 1) and start < stop and not (start == end and start in (match.start(), stop)):
            return True
    return False

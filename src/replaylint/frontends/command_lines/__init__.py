"""Command lines that another program runs: systemd units (`*.service`: `ExecStart=`), Podman Quadlet
units (`*.container`: `Image=` and `Exec=`), Apptainer definition files (`*.def`: `%runscript`), `Procfile`s
(each process's command), `tox.ini` (`commands`), supervisord programs (`command=`) and Nomad jobs in HCL (a
task's `config`: `nomad_hcl`; no fixes are written there).

Each command becomes a shell script read by the shell interpreter (`readers.shell.extract_script`)
with each character's place in the file, as a Makefile recipe's lines are: a `Procfile` line is
already one (its runner is a shell); systemd and tox run no shell, so their words are rewritten
as shell text giving the same words (`shell_words`), with the program's own substitutions
(systemd's `${VAR}` and `%i`, tox's `{posargs}`, supervisord's `%(ENV_X)s`) as known values or unknown text.

Fixes edit the command in place; text written is escaped for the file (`$$` and `%%` in a unit,
`\\{` in tox.ini), and a fix that would write into a substitution is not offered.
"""

from __future__ import annotations

import re
from typing import Callable

from ...model import Edit, Fix, Launch
from ...readers.host_scripts import Script, launches_of, parses, render_outside
from ...source import ExtractContext, SourceFile
from .supervisord import EXPANSION as SUPERVISORD_EXPANSION
from .tox_ini import SUBSTITUTION as TOX_SUBSTITUTION

__all__ = ["extract", "parses", "render"]

_SUBSTITUTIONS = {
    "systemd": re.compile(r"\$\{?\w+\}?|%."),
    "quadlet": re.compile(r"\$\{?\w+\}?|%."),
    "procfile": re.compile(r"\$\{?PORT\}?"),
    "apptainer": re.compile(r"(?!)"),  # the sections are shell scripts as written
    "tox": TOX_SUBSTITUTION,
    "supervisord": SUPERVISORD_EXPANSION,
    "nomad": re.compile(r"[$%]\{"),
}
_ESCAPES: dict[str, Callable[[str], str]] = {
    "systemd": lambda text: text.replace("%", "%%").replace("$", "$$"),
    "quadlet": lambda text: text.replace("%", "%%").replace("$", "$$"),
    "procfile": lambda text: text,
    "apptainer": lambda text: text,
    "tox": lambda text: text.replace("{", "\\{").replace("}", "\\}"),
    "supervisord": lambda text: text.replace("%", "%%"),
    "nomad": lambda text: text,  # no fix is written into HCL (`render`)
}


def kind_of(path: str) -> str:
    name = path.replace("\\", "/").rsplit("/", 1)[-1].lower()
    if name.endswith(".service"):
        return "systemd"
    if name.endswith(".container"):
        return "quadlet"
    if name == "tox.ini":
        return "tox"
    if name.endswith(".def"):
        return "apptainer"
    if name.endswith((".hcl", ".nomad")):
        return "nomad"
    return "supervisord" if name.endswith((".conf", ".ini")) else "procfile"


def _scripts(source: SourceFile, context: ExtractContext) -> list[Script]:
    kind = kind_of(source.path)
    if kind == "systemd":
        from .systemd import scripts
    elif kind == "quadlet":
        from .quadlet import scripts
    elif kind == "tox":
        from .tox_ini import scripts
    elif kind == "apptainer":
        from .apptainer import scripts
    elif kind == "supervisord":
        from .supervisord import scripts
    elif kind == "nomad":
        from .nomad_hcl import scripts as nomad_scripts

        return nomad_scripts(source, context.budget)  # tree-sitter-hcl's parse is charged to the file
    else:
        from .procfile import scripts
    return scripts(source)


def extract(source: SourceFile, context: ExtractContext) -> list[Launch]:
    if kind_of(source.path) != "nomad":  # (tree-sitter-hcl's parse is charged by the tokens it reads)
        context.budget.charge(len(source.text))
    return launches_of(_scripts(source, context), source, context, _ESCAPES[kind_of(source.path)])


def render(launch: Launch, fix: Fix, source: SourceFile) -> list[Edit] | None:
    """The shell interpreter's edits, unless one writes into a substitution (none into a Nomad job's HCL,
    whose words sit in quoted strings of a list)."""
    kind = kind_of(source.path)
    if kind == "nomad":
        return None
    substitution = _SUBSTITUTIONS[kind]
    return render_outside(launch, fix, source, lambda text, start, end: _touches(substitution, text, start, end))


def _touches(substitution: re.Pattern[str], text: str, start: int, end: int) -> bool:
    """Whether [start, end) (an insertion: the character at `start`) touches a substitution of its line."""
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", end)
    stop = len(text) if line_end < 0 else line_end
    return any(found.start() < max(end, start + 1) and start < found.end() for found in substitution.finditer(text, line_start, stop))

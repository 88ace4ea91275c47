"""The programs a shell script runs, read as bash runs the script when other scripts of the tree run
it with their words (Qwen2.5-Math's `sh/eval.sh`, which reads `ENGINE_TYPE=$4`, run by
`sh/run_eval_qwen25_math.sh` as `bash sh/eval.sh $PROMPT_TYPE $MODEL_NAME_OR_PATH math_eval vllm`):
each caller's words are the script's positional parameters, and its runs are those its callers'
readings give, instead of its own reading (where `$4` is not known).

A script is read through its callers only when it reads its positional parameters (`$1`, `${2:-x}`,
`"$@"`, `shift`) and a shell script near it (`program_environment.run_files`, the files that name
its file's name) runs it; a caller read through its own callers in turn (`MAX_CALLERS` deep). Its
own reading is kept beside its callers' where something else may run it with other words: a file
near it that names it and is not a shell script (a Makefile, a YAML job, a justfile, a Python
program near the module), a caller not read whole, or more files than are read."""

from __future__ import annotations

import os
import re
from typing import TYPE_CHECKING

from ....source import ParseError, SourceFile
from .program_environment import run_files

if TYPE_CHECKING:
    from ....readers.shell.program_runs import ProgramWords

MAX_CALLERS = 3  # scripts running scripts that run the script, read through in turn
_SCRIPTS = (".sh", ".bash")
_POSITIONAL = re.compile(r"\$\{?[1-9@*#]|\bshift\b")
_DEFAULT = re.compile(r"\$\{\w+:?[-=]")  # `${6:-0}`, `${TEMP-0}`, `${X:=v}`
_ARGUMENT_TEST = re.compile(r'(?:\[\[?|\btest)\s+-[zn]\s+"?\$\{?[1-9]')  # `[ -z "$1" ]`: its default when run without arguments

Readings = list["ProgramWords"] | None  # None: a script not read whole


def script_runs_read(reader, file: str, text: str, program: str, commands: dict[str, str] | None = None) -> Readings:
    """The runs of programs the script `file` gives (its own and those of the script files it runs),
    through the scripts that run it where there are some; `program`: the module asked about;
    `commands`: the console scripts that run a module of the tree (`program_words`)."""
    readings = _readings(reader, file, text, program, (), commands or {})
    if readings is None or not _called(reader, file, text, program):
        return readings
    return [run for run in readings if os.path.normpath(run.file) == os.path.normpath(file)]


def _readings(reader, file: str, text: str, program: str, chain: tuple[str, ...], commands: dict[str, str]) -> Readings:
    """Every run a reading of the script gives, its own or its callers' (each caller's runs too)."""
    if len(chain) >= MAX_CALLERS or not _called(reader, file, text, program):
        return _own(reader, file, text, commands, _as_written(reader, file, text, program))
    through: list[ProgramWords] = []
    callers, elsewhere = _callers(reader, file, program)
    for caller, caller_text in callers:
        if os.path.normpath(caller) in chain:
            continue  # a.sh runs b.sh runs a.sh
        found = _readings(reader, caller, caller_text, program, (*chain, os.path.normpath(file)), commands)
        elsewhere = elsewhere or found is None
        through += [run for run in found or () if os.path.normpath(file) in map(os.path.normpath, run.files)]
    own = _own(reader, file, text, commands) if elsewhere or not through else []
    return None if own is None else [*through, *own]


def _called(reader, file: str, text: str, program: str) -> bool:
    return _POSITIONAL.search(text) is not None and bool(_callers(reader, file, program)[0])


def _callers(reader, file: str, program: str) -> tuple[list[tuple[str, str]], bool]:
    """The shell scripts near `file` that name it, and whether another file there may run it."""
    known: dict = reader.__dict__.setdefault("_script_callers", {})
    if file not in known:
        name = os.path.basename(file)
        files, elsewhere = run_files(reader.tree.context, file, name)
        here = os.path.normpath(file)
        scripts = [(path, text) for path, text in files if path.endswith(_SCRIPTS) and os.path.normpath(path) != here]
        elsewhere = elsewhere or any(not path.endswith(_SCRIPTS) for path, _ in files)
        elsewhere = elsewhere or any(_names(text, name) for _, text in reader.tree.nearby_texts(program))
        known[file] = (scripts, elsewhere)
    return known[file]


def _as_written(reader, file: str, text: str, program: str) -> bool:
    """Whether the script is only ever run as written, without arguments: no file near it names it.
    Only a script that may take a default (`${6:-0}`, `${TEMP:-0}`, `if [ -z "$1" ]; then NAME=...`) is looked at."""
    defaults = "${" in text and _DEFAULT.search(text) is not None
    tested = not defaults and ("-z" in text or "-n" in text) and _ARGUMENT_TEST.search(text) is not None
    return (defaults or tested) and _callers(reader, file, program) == ([], False)


def _own(reader, file: str, text: str, commands: dict[str, str], as_written: bool = False) -> Readings:
    """The script's runs read on its own, once per check: its positional parameters not known, or
    `as_written` (nothing else runs it), with the defaults it then takes."""
    from ....readers.shell.program_runs import program_words  # the shell interpreter: loaded when a run is asked for

    known: dict = reader.__dict__.setdefault("_script_words", {})
    key = (file, tuple(sorted(commands.items())), as_written)
    if key not in known:
        try:
            known[key] = program_words(SourceFile(file, text), reader.tree.context, commands, as_written)
        except (ParseError, RecursionError):
            known[key] = None
    return known[key]


def _names(python: str, name: str) -> bool:
    """Whether a Python file names the script outside its comment lines (`subprocess.run(["bash", "sh/eval.sh", ...])`)."""
    return name in python and any(name in line and not line.lstrip().startswith("#") for line in python.splitlines())

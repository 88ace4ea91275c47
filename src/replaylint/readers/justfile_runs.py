"""The Python programs a justfile's recipes run (`python -m rollout.chat`, `python3 tools/gen.py`,
also behind `NAME=V` prefixes, `env NAME=V`, `nohup`, `exec`, `uv run`), each with what one
variable holds in its environment: the line's own `NAME=V` prefix, else what just exports to the
recipe (`export NAME := "..."`, `set export`, a `$name` parameter: `readers.justfiles`).

A line the reading cannot follow word by word (an expansion, a substitution, a pipe, a
redirection) that names python may run any program with anything: a run of any program whose
value is not known. So is every run of a recipe whose environment a dotenv file may fill
(`set dotenv-load`), and of a shebang recipe that names the variable in its own text."""

from __future__ import annotations

import re
import shlex

from ..source import SourceFile
from .host_scripts import Script
from .justfiles import scripts
from .python_runs import ANY_RUN, ProgramRun, is_python, python_command

_SEPARATORS = frozenset((";", "&&", "||", "&", "\n"))
_UNFOLLOWED = re.compile(r"[$`|<>()]")  # what the shell would expand, substitute, pipe or redirect


def justfile_runs(source: SourceFile, name: str) -> list[ProgramRun]:
    """The Python programs the justfile `source` runs, each with what `name` holds in its environment."""
    runs: list[ProgramRun] = []
    for script in scripts(source):
        text = script.expanded.text
        if "python" not in text:
            continue
        if script.env_open or (text.count("\n") and name in text):  # a dotenv file, or a shebang recipe's own export
            runs.append(ANY_RUN)
            continue
        runs += [_run(words, script, source, name) for words in _commands(text)]
    return list(dict.fromkeys(runs))


def _commands(text: str) -> list[list[str]]:
    """The words of each command of a recipe line that names python (one unread command, `[]`,
    for a line the reading does not follow)."""
    if _UNFOLLOWED.search(text):
        return [[]]
    lexer = shlex.shlex(text, posix=True, punctuation_chars=";&|")
    lexer.whitespace = " \t\r"
    lexer.whitespace_split = True
    try:
        tokens = list(lexer)
    except ValueError:  # an unclosed quote
        return [[]]
    commands: list[list[str]] = [[]]
    for token in tokens:
        if token in _SEPARATORS:
            commands.append([])
        else:
            commands[-1].append(token)
    return [words for words in commands if any(_names_python(word) for word in words)]


def _names_python(word: str) -> bool:
    """A word that runs python (`python3`, `/usr/bin/python3.11`), or holds a command that may (`bash -c "python x.py"`)."""
    return is_python(word) or ("python" in word and any(c.isspace() for c in word))


def _run(words: list[str], script: Script, source: SourceFile, name: str) -> ProgramRun:
    command = python_command(words)
    if command is None:
        return ANY_RUN  # python run another way (`-c`, behind a command not read): any program
    given, module, path = command
    if name in given:
        return ProgramRun(module, path, given[name], source.index.span(script.expanded.to_offset(0), script.expanded.end))
    exported = script.env.get(name)
    value = exported.value if exported is not None and isinstance(exported.value, str) else None
    return ProgramRun(module, path, value, exported.span if exported is not None else None)

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

from ..model import Span
from ..records import record
from ..source import SourceFile
from .host_scripts import Script
from .justfiles import scripts

_PYTHON = re.compile(r"python(?:3(?:\.\d+)?)?")
_PREFIXES = frozenset(("nohup", "time", "exec", "stdbuf"))
_RUNNERS = frozenset(("uv", "poetry", "pdm", "pipenv", "hatch", "rye"))
_VALUED = frozenset(("-X", "-W"))  # python's options that take a value
_SEPARATORS = frozenset((";", "&&", "||", "&", "\n"))
_UNFOLLOWED = re.compile(r"[$`|<>()]")  # what the shell would expand, substitute, pipe or redirect


@record(unsafe_hash=True)
class RecipeRun:
    """`module` (after `-m`) or `path` (a script, as written) a recipe line runs, both None for a
    line not followed (any program); `value`: the variable's text there (None: not known); `at`:
    where the value is written (the export, or the prefix's line)."""

    module: str | None
    path: str | None
    value: str | None
    at: Span | None = None


def justfile_runs(source: SourceFile, name: str) -> list[RecipeRun]:
    """The Python programs the justfile `source` runs, each with what `name` holds in its environment."""
    runs: list[RecipeRun] = []
    for script in scripts(source):
        text = script.expanded.text
        if "python" not in text:
            continue
        if script.env_open or (text.count("\n") and name in text):  # a dotenv file, or a shebang recipe's own export
            runs.append(RecipeRun(None, None, None))
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
    return _PYTHON.fullmatch(word.rpartition("/")[2]) is not None or ("python" in word and any(c.isspace() for c in word))


def _run(words: list[str], script: Script, source: SourceFile, name: str) -> RecipeRun:
    given: dict[str, str] = {}
    position = 0
    while position < len(words) and _assignment(words[position]):
        key, _, value = words[position].partition("=")
        given[key] = value
        position += 1
    while position < len(words) and words[position] in _PREFIXES:
        position += 1
    if position < len(words) and words[position] == "env":
        position += 1
        while position < len(words) and _assignment(words[position]):
            key, _, value = words[position].partition("=")
            given[key] = value
            position += 1
    if position + 1 < len(words) and words[position] in _RUNNERS and words[position + 1] == "run":
        position += 2
    head = words[position] if position < len(words) else ""
    target = _target(words[position + 1 :]) if _PYTHON.fullmatch(head.rpartition("/")[2]) else None
    if target is None:
        return RecipeRun(None, None, None)  # python run another way (`-c`, a word not known): any program
    if name in given:
        return RecipeRun(*target, given[name], source.index.span(script.expanded.to_offset(0), script.expanded.end))
    exported = script.env.get(name)
    value = exported.value if exported is not None and isinstance(exported.value, str) else None
    return RecipeRun(*target, value, exported.span if exported is not None else None)


def _assignment(word: str) -> bool:
    key, equals, _ = word.partition("=")
    return bool(equals) and key.isidentifier()


def _target(words: list[str]) -> tuple[str | None, str | None] | None:
    """(module, None) of `-m MODULE`, (None, path) of `FILE.py`: what python's arguments run."""
    position = 0
    while position < len(words):
        word = words[position]
        if word == "-c":
            return None
        if word == "-m":
            return (words[position + 1], None) if position + 1 < len(words) else None
        if word.startswith("-m") and len(word) > 2:
            return word[2:], None
        if not word.startswith("-"):
            return (None, word) if word.endswith(".py") else None
        position += 2 if word in _VALUED else 1
    return None

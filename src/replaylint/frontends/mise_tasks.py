"""mise tasks (`mise.toml`, `.mise.toml`, `mise.local.toml`, `.config/mise.toml`, `mise/config.toml`):
`[tasks.serve] run = "vllm serve ..."` (or a list of commands, or the short `[tasks] serve = "..."`), each
command run by a shell (`sh -c`) as written (https://mise.jdx.dev/tasks/toml-tasks.html).

A command is read where its string is written, character for character: a basic string with
an escape (`\\"`) is not (its text is not the file's), and neither is a command with a Tera
block (`{% if %}`: which text runs is not known here). A Tera expression (`{{arg(name="port")}}`,
`{{env.PORT}}`) is unknown text that may stand for any number of words. The environment is open
(`[env]`, a task's `env`, `.env` files and the user's shell add to it).
"""

from __future__ import annotations

import re
from typing import Any, Iterator

from ..readers.host_scripts import Expanded, Script
from ..toml_document import TomlDocument

_NAMES = ("mise.toml", ".mise.toml", "mise.local.toml", ".mise.local.toml")
_IN_FOLDERS = (".config/mise.toml", "mise/config.toml", ".mise/config.toml", ".config/mise/config.toml")
_TEMPLATE = re.compile(r"\{\{.*?\}\}", re.DOTALL)
_STRING = re.compile(r'"""|\'\'\'|"(?:[^"\\\n]|\\.)*"|\'[^\'\n]*\'')


def is_mise_config(path: str) -> bool:
    """Whether `path` is a file mise reads its tasks from."""
    normal = path.replace("\\", "/")
    name = normal.rsplit("/", 1)[-1]
    return name in _NAMES or re.fullmatch(r"\.?mise\.[\w-]+\.toml", name) is not None or normal.endswith(_IN_FOLDERS)


def scripts(document: TomlDocument) -> list[Script]:
    tasks = document.data.get("tasks")
    if not isinstance(tasks, dict):
        return []
    found = []
    for name, task in tasks.items():
        path: tuple[Any, ...] = ("tasks", name) if isinstance(task, (str, list)) else ("tasks", name, "run")
        run = task if isinstance(task, (str, list)) else task.get("run") if isinstance(task, dict) else None
        for start, command in _commands(document, path, run):
            expanded = _expanded(command, start)
            if expanded is not None:
                found.append(Script(expanded, {}, env_open=True))
    return found


def _commands(document: TomlDocument, path: tuple[Any, ...], run: Any) -> Iterator[tuple[int, str]]:
    """(file offset, text) of each command of `run`, as the file writes it."""
    entry = document.entries.get(path)
    if entry is None:
        return
    commands = [run] if isinstance(run, str) else [item for item in run if isinstance(item, str)] if isinstance(run, list) else []
    if isinstance(run, list) and len(commands) != len(run):
        return
    text = document.source.text
    if isinstance(run, str):
        literals = [match for match in [_STRING.match(text, entry.value_start)] if match is not None]
    else:
        literals = list(_STRING.finditer(text, entry.value_start, entry.value_end))
        if any(len(match.group()) == 3 for match in literals):
            return  # a multi-line string in a list: its quotes would be read as strings of their own
    if len(literals) != len(commands):  # a quote in a comment: not placed
        return
    for match, command in zip(literals, commands):
        placed = _inner(text, match.start(), entry.value_end, match.group())
        if placed is not None and placed[1] == command:
            yield placed


def _inner(text: str, start: int, limit: int, opening: str) -> tuple[int, str] | None:
    """Where a string's own text starts and that text, for one written without escapes."""
    if opening in ('"""', "'''"):
        end = text.find(opening, start + 3, limit)
        inner_start = start + 3 + (1 if text.startswith("\n", start + 3) else 2 if text.startswith("\r\n", start + 3) else 0)
        return None if end < 0 else (inner_start, text[inner_start:end])
    inner = opening[1:-1]
    return None if opening[0] == '"' and "\\" in inner else (start + 1, inner)


def _expanded(command: str, start: int) -> Expanded | None:
    if "{%" in command or "\\" in command:
        return None
    expanded = Expanded()
    position = 0
    for template in _TEMPLATE.finditer(command):
        expanded.exact(command[position : template.start()], start + position)
        expanded.unknown(start + template.start(), start + template.end())
        position = template.end()
    expanded.exact(command[position:], start + position)
    return expanded

"""`tox.ini`: the `commands` (and `commands_pre`, `commands_post`) of each `[testenv]` section, with
the environment its `setenv` gives them (tox's configuration reference, "tox.ini").

- A value goes on over the indented lines after its key; each line of `commands` is one command,
  a line ending in a backslash goes on with the next. A line starting with `#` or `;` is a comment,
  skipped wherever it starts (configparser reads on past it).
- tox runs no shell: a command's words are split as `shlex` splits them (`shell_words`); a
  leading `-` or `!` (ignore the exit code) is dropped.
- `{...}` is tox's substitution: `{posargs}` (and `[]`) the caller's words, `{env:NAME}` and
  `{[section]key}` text from elsewhere, all unknown; `{envpython}` is the environment's Python;
  `\\{` is a brace. `setenv` lines (`NAME = value`) set the command's environment; a value with a
  substitution is unknown. An environment `[testenv:name]` also has `[testenv]`'s `setenv`.
"""

from __future__ import annotations

import re
from typing import Iterator

from ...model import UNKNOWN, Setting
from ...readers.host_scripts import Expanded, Script
from ...source import SourceFile
from .shell_words import ends_continued, translate

_SECTION = re.compile(r"^\[(?P<name>[^\]]+)\]", re.MULTILINE)
_KEY = re.compile(r"^(?P<key>[\w.-]+)[ \t]*[=:][ \t]*", re.MULTILINE)
_COMMAND_KEYS = ("commands", "commands_pre", "commands_post")
# `{posargs:--port 9}`: a default may hold spaces; the whole substitution is unknown.
SUBSTITUTION = re.compile(r"\{[^{}\r\n]*\}|\[\]")
_SETENV = re.compile(r"(?P<name>[A-Za-z_]\w*)[ \t]*=[ \t]*(?P<value>.*?)[ \t]*$")
_PYTHON = ("{envpython}",)


def sections(text: str) -> Iterator[tuple[str, int, int]]:
    headers = list(_SECTION.finditer(text))
    for number, header in enumerate(headers):
        end = headers[number + 1].start() if number + 1 < len(headers) else len(text)
        yield header["name"].strip(), header.end(), end


def key_values(text: str, start: int, end: int) -> Iterator[tuple[str, list[tuple[int, int]]]]:
    """Each key of a section and the lines of its value (offsets, comments and blank lines left out)."""
    keys = list(_KEY.finditer(text, start, end))
    for number, key in enumerate(keys):
        stop = keys[number + 1].start() if number + 1 < len(keys) else end
        lines = []
        position = key.end()
        while position < stop:
            line_end = text.find("\n", position, stop)
            line_end = stop if line_end < 0 else line_end
            content = text[position:line_end].rstrip("\r")
            stripped = content.strip()
            if stripped.startswith(("#", ";")):
                position = line_end + 1
                continue  # a comment line, even at column 0: configparser skips it and reads on
            if position != key.end() and content[:1] not in (" ", "\t") and stripped:
                break  # an unindented line: the value ended
            if stripped:
                lead = len(content) - len(content.lstrip())
                lines.append((position + lead, position + len(content)))
            position = line_end + 1
        yield key["key"], lines


def scripts(source: SourceFile) -> list[Script]:
    text = source.text
    base_env: dict[str, Setting] = {}
    found = []
    for name, start, end in sections(text):
        if name != "testenv" and not name.startswith("testenv:"):
            continue
        values = dict(key_values(text, start, end))
        env = {**base_env, **_setenv(source, values.get("setenv", []))}
        if name == "testenv":
            base_env = env
        for key in _COMMAND_KEYS:
            if values.get(key):
                found.append(Script(_commands(text, values[key]), env))
    return found


def _commands(text: str, lines: list[tuple[int, int]]) -> Expanded:
    expanded = Expanded()
    index = 0
    while index < len(lines):
        start, end = lines[index]
        while start < end and text[start] in "-!":
            start += 1
        while ends_continued(text[lines[index][0] : lines[index][1]]) and index + 1 < len(lines):
            index += 1
            end = lines[index][1]
        translate(text, start, end, expanded, _substitute)
        expanded.standing_for("\n", end, end)
        index += 1
    return expanded


def _substitute(text: str, position: int, quote: str, expanded: Expanded) -> int:
    if text[position] not in "{[":
        return 0
    substitution = SUBSTITUTION.match(text, position)
    if substitution is None:
        return 0
    if substitution.group() in _PYTHON:
        expanded.standing_for("python", position, substitution.end())
    else:
        expanded.unknown(position, substitution.end())
    return substitution.end() - position


def _setenv(source: SourceFile, lines: list[tuple[int, int]]) -> dict[str, Setting]:
    found = {}
    for start, end in lines:
        assignment = _SETENV.match(source.text, start, end)
        if assignment is None:
            continue
        value = assignment["value"]
        name = assignment["name"]
        value_span = source.index.span(assignment.start("value"), assignment.end("value"))
        known = UNKNOWN if "{" in value else value
        found[name] = Setting(name, known, source.index.span(start, end), source.text[start:end], value_span)
    return found

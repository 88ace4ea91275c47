"""systemd units (`*.service`): the `ExecStart=` command lines of the `[Service]` section, with
the environment `Environment=` gives them (systemd.service(5), systemd.exec(5), systemd.syntax(7)).

- A line ending in a backslash continues on the next (a comment line between is skipped).
- `ExecStart=` runs no shell: its words are split as `shell_words` reads them. Its prefixes
  (`-`, `:`, `+`, `!`, `!!`) are dropped; `@` (the second word is argv[0]) is not read. An empty
  `ExecStart=` clears the ones before it.
- `${VAR}` is the variable's value as one word, `$VAR` (a word of its own) its value split at
  whitespace (inside a word, `$VAR` is passed as written), `$$` a dollar sign; `:` turns both
  off. A variable `Environment=` sets is known; any other is unknown (one word for `${VAR}`, any
  number for `$VAR`).
- `%` specifiers (`%i`, `%n`, `%H`, ...) are the unit's instance, name, host: unknown text
  (`%%` is a percent sign).
- `Environment=` holds quoted `NAME=value` words; `EnvironmentFile=` names an absolute path
  outside the tree, so the environment is open.
"""

from __future__ import annotations

import re
from typing import Iterator

from ...model import UNKNOWN, Setting
from ...readers.host_scripts import Expanded, Script
from ...source import SourceFile
from .shell_words import ends_continued, translate

_SECTION = re.compile(r"^\s*\[(?P<name>[^\]]+)\]")
_ENTRY = re.compile(r"^(?P<key>[A-Za-z][\w-]*)[ \t]*=[ \t]*")
_PREFIXES = "-:+!"
_ASSIGNMENT = re.compile(r"""(?:"(?P<double>[^"\\]*(?:\\.[^"\\]*)*)"|'(?P<single>[^']*)'|(?P<bare>[^\s"']+))""")
_VARIABLE = re.compile(r"\$(?:\{(?P<braced>[A-Za-z_]\w*)\}|(?P<bare>[A-Za-z_]\w*))")


def entries(text: str) -> Iterator[tuple[str, str, int, int]]:
    """(section, key, value start, value end) of each entry, a continued value as one."""
    section = ""
    lines = text.splitlines(keepends=True)
    position = index = 0
    while index < len(lines):
        line = lines[index]
        start = position
        position += len(line)
        index += 1
        header = _SECTION.match(line)
        if header is not None:
            section = header["name"].strip()
            continue
        entry = _ENTRY.match(line)
        if entry is None or line.lstrip().startswith(("#", ";")):
            continue
        end = start + len(line.rstrip("\r\n"))
        continued = ends_continued(line.rstrip("\n"))
        while continued and index < len(lines):
            line = lines[index]
            position += len(line)
            index += 1
            if not line.lstrip().startswith(("#", ";")):  # a comment line goes on with the command
                end = position - (len(line) - len(line.rstrip("\r\n")))
                continued = ends_continued(line.rstrip("\n"))
        yield section, entry["key"], start + entry.end(), end


def scripts(source: SourceFile) -> list[Script]:
    text = source.text
    env: dict[str, Setting] = {}
    env_open = False
    commands: list[tuple[int, int]] = []
    for section, key, start, end in entries(text):
        if section != "Service":
            continue
        if key == "Environment":
            env.update(assignments(source, start, end))
        elif key == "EnvironmentFile":
            env_open = True
        elif key == "ExecStart":
            commands = [] if start >= end else [*commands, (start, end)]
    found = []
    for start, end in commands:
        expanded = command(text, start, end, env)
        if expanded is not None:
            found.append(Script(expanded, dict(env), env_open=env_open))
    return found


def command(text: str, start: int, end: int, env: dict[str, Setting]) -> Expanded | None:
    prefixes = start
    while prefixes < end and text[prefixes] in _PREFIXES + "@":
        prefixes += 1
    if "@" in text[start:prefixes]:
        return None
    expand = ":" not in text[start:prefixes]
    expanded = Expanded()

    def substitute(line: str, position: int, quote: str, expanded: Expanded) -> int:
        char = line[position]
        if char == "%":
            if line.startswith("%%", position):
                expanded.standing_for("%", position, position + 2)
                return 2
            expanded.unknown(position, position + 2)
            return 2
        if char != "$":
            return 0
        if line.startswith("$$", position):
            expanded.standing_for("\\$", position, position + 2)
            return 2
        variable = _VARIABLE.match(line, position)
        if variable is None or not expand:
            return 0
        if variable["bare"] and not _whole_word(line, position, variable.end(), quote):
            expanded.standing_for("\\$", position, position + 1)  # `--mode=$MODE`: systemd passes it as written
            return 1
        name = variable["braced"] or variable["bare"]
        shell = f"${{{name}}}" if quote or variable["bare"] or _one_word(env.get(name)) else f'"${{{name}}}"'  # `${VAR}`: one word
        expanded.standing_for(shell, position, variable.end())
        return variable.end() - position

    translate(text, prefixes, end, expanded, substitute, comments_continue=True)
    return expanded


def _whole_word(text: str, start: int, end: int, quote: str) -> bool:
    """Whether `text[start:end]` is a word of its own, its quotes taken off (systemd expands a bare
    `$VAR` only then: `"$VAR"` is one, `--mode=$VAR` is not)."""
    if quote:
        start -= text[start - 1 : start] == quote
        end += text[end : end + 1] == quote
    return (start == 0 or text[start - 1] in " \t\n") and (end == len(text) or text[end] in " \t\r\n\\")


def _one_word(setting: Setting | None) -> bool:
    """A known value the shell would not split or glob (written unquoted, as the unit has it)."""
    return setting is not None and isinstance(setting.value, str) and re.fullmatch(r"[\w./:=,@+-]+", setting.value) is not None


def assignments(source: SourceFile, start: int, end: int) -> dict[str, Setting]:
    """`Environment=` words: `NAME=value`, a whole word quoted or not (systemd.exec(5))."""
    found = {}
    for word in _ASSIGNMENT.finditer(source.text, start, end):
        quoted = word["double"] if word["double"] is not None else word["single"]
        content = quoted if quoted is not None else word["bare"]
        name, equals, value = content.partition("=")
        if not equals or not re.fullmatch(r"[A-Za-z_]\w*", name):
            continue
        value_start = word.start() + (1 if quoted is not None else 0) + len(name) + 1
        span = source.index.span(word.start(), word.end())
        value_span = source.index.span(value_start, value_start + len(value))
        found[name] = Setting(name, UNKNOWN if "%" in value else value, span, word.group(), value_span)
    return found

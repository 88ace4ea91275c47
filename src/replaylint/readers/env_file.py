"""`.env`-style files (compose `env_file`, `docker run --env-file`): their variables, with spans
in the file.

A line is `NAME=value` (also `export NAME=value`); `#` starts a comment line, and, after an
unquoted value, a comment after a space; single quotes keep their content as is, double quotes
too here (their escapes and `${...}` are rare in a runner flag); `NAME` alone, and any unquoted
or double-quoted `$`, come from the environment of whoever reads the file, so they are unknown.
"""

from __future__ import annotations

import re

from ..model import UNKNOWN, LineIndex, Setting

_LINE = re.compile(r"^[ \t]*(?:export[ \t]+)?(?P<name>[A-Za-z_][A-Za-z0-9_.-]*)[ \t]*(?:=(?P<value>.*))?$")


def parse(path: str, text: str) -> dict[str, Setting]:
    index = LineIndex(path, text)
    settings: dict[str, Setting] = {}
    offset = 0
    for line in index.lines():
        body = line.rstrip("\r\n")
        match = _LINE.match(body)
        if match is not None and not body.lstrip().startswith("#"):
            name, raw = match.group("name"), match.group("value")
            value, value_start, value_end = _value(raw, match.start("value")) if raw is not None else (UNKNOWN, None, None)
            end = value_end if value_end is not None else len(body.rstrip())
            value_span = index.span(offset + value_start, offset + value_end) if value_start is not None else None
            spelling = body[match.start("name") : end]
            settings[name] = Setting(name, value, index.span(offset + match.start("name"), offset + end), spelling, value_span)
        offset += len(line)
    return settings


def _value(raw: str, start: int) -> tuple[object, int, int]:
    """The value of `NAME=raw` and its bounds in the line (quotes included)."""
    stripped = raw.strip()
    lead = start + len(raw) - len(raw.lstrip())
    if len(stripped) >= 2 and stripped[0] == stripped[-1] and stripped[0] in "'\"":
        content = stripped[1:-1]
        known = stripped[0] == "'" or "$" not in content
        return (content if known else UNKNOWN), lead, lead + len(stripped)
    unquoted = re.split(r"[ \t]#", stripped, maxsplit=1)[0].rstrip()
    return (UNKNOWN if "$" in unquoted else unquoted), lead, lead + len(unquoted)

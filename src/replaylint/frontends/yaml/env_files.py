"""docker-compose `env_file:`: the variables of `.env`-style files, with spans in those files.

Compose reads each file next to the compose file, later files over earlier ones, and
`environment:` over them all. A line is `NAME=value` (also `export NAME=value`); `#` starts a
comment line, and, after an unquoted value, a comment after a space; single quotes keep their
content as is, double quotes too here (their escapes and `${...}` are rare in a runner flag);
`NAME` alone, and any unquoted or double-quoted `$`, come from the shell running compose, so
they are unknown. A file that cannot be read opens the environment, unless it is marked
`required: false` (compose then skips it).
"""

from __future__ import annotations

import re

from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from ...model import UNKNOWN, LineIndex, Setting
from .. import ExtractContext, SourceFile
from .nodes import get

_LINE = re.compile(r"^[ \t]*(?:export[ \t]+)?(?P<name>[A-Za-z_][A-Za-z0-9_.-]*)[ \t]*(?:=(?P<value>.*))?$")


def declared(node: Node | None) -> list[tuple[str, bool]] | None:
    """The files `env_file` names, each with whether it is required (None: not readable here)."""
    items = node.value if isinstance(node, SequenceNode) else [node]
    found = []
    for item in items:
        if isinstance(item, ScalarNode):
            found.append((item.value, True))
        elif isinstance(item, MappingNode) and isinstance(get(item, "path"), ScalarNode):
            required = get(item, "required")
            found.append((get(item, "path").value, not (isinstance(required, ScalarNode) and required.value.lower() == "false")))
        else:
            return None
    return found


def read(source: SourceFile, context: ExtractContext, node: Node | None) -> tuple[dict[str, Setting], bool]:
    """The settings the files of `env_file` give, and whether the environment stays open."""
    files = declared(node)
    if files is None:
        return {}, True
    settings: dict[str, Setting] = {}
    opened = False
    for name, required in files:
        if "$" in name:
            opened = True
            continue
        path = _beside(source.path, name)
        text = context.read_text(path)
        if text is None:
            opened = opened or required
            continue
        settings.update(parse(path, text))
    return settings, opened


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


def _beside(compose_path: str, name: str) -> str:
    import os

    return os.path.normpath(os.path.join(os.path.dirname(compose_path), name))

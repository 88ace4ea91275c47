"""supervisord programs (`supervisord.conf`, `conf.d/*.conf`, RHEL's `supervisord.d/*.ini`): the `command=` of each
`[program:name]` section, with the environment `environment=` gives it (supervisord's
"Configuration File" docs).

- The file is INI as Python's configparser reads it: a value goes on over the indented lines
  after its key, a line starting with `;` or `#` is a comment.
- supervisord runs no shell: `command=` is split as `shlex` splits it (`shell_words`).
- `%(name)s` is supervisord's expansion (`%(ENV_HOME)s`, `%(program_name)s`, `%(here)s`):
  unknown text; `%%` is a percent sign.
- `environment=KEY="value",KEY2="value"` (of `[supervisord]`, then the program's) adds to the
  environment supervisord itself was started with, which replaylint does not see: it is open.
"""

from __future__ import annotations

import re

from ...model import UNKNOWN, Setting
from ...readers.host_scripts import Expanded, Script
from ...source import SourceFile
from .shell_words import translate
from .tox_ini import key_values, sections

EXPANSION = re.compile(r"%\([^)\r\n]*\)[-#0 +]*\d*(?:\.\d+)?[a-zA-Z]|%%")
_PAIR = re.compile(
    r"""[ \t]*(?P<name>[A-Za-z_]\w*)[ \t]*=[ \t]*(?:"(?P<double>[^"]*)"|'(?P<single>[^']*)'|(?P<bare>[^,\s]*))[ \t]*(?:,|$)"""
)


def scripts(source: SourceFile) -> list[Script]:
    text = source.text
    base_env: dict[str, Setting] = {}
    found = []
    for name, start, end in sections(text):
        values = dict(key_values(text, start, end))
        env = {**base_env, **_environment(source, values.get("environment", []))}
        if name == "supervisord":
            base_env = env
        elif name.startswith("program:") and values.get("command"):
            found.append(Script(_command(text, values["command"]), env, env_open=True))
    return found


def _command(text: str, lines: list[tuple[int, int]]) -> Expanded:
    """configparser joins a value's lines with a newline; shlex reads it as a space."""
    expanded = Expanded()
    for number, (start, end) in enumerate(lines):
        if number:
            expanded.standing_for(" ", start, start)
        translate(text, start, _before_comment(text, start, end), expanded, _substitute)
    return expanded


def _before_comment(text: str, start: int, end: int) -> int:
    """supervisord's parser takes `;` or `#` after whitespace as the start of a comment."""
    comment = re.search(r"[ \t][;#]", text[start:end])
    return end if comment is None else start + comment.start()


def _substitute(text: str, position: int, quote: str, expanded: Expanded) -> int:
    if text[position] != "%":
        return 0
    expansion = EXPANSION.match(text, position)
    if expansion is None:
        return 0
    if expansion.group() == "%%":
        expanded.standing_for("%", position, expansion.end())
    else:
        expanded.unknown(position, expansion.end())
    return expansion.end() - position


def _environment(source: SourceFile, lines: list[tuple[int, int]]) -> dict[str, Setting]:
    found = {}
    for start, end in lines:
        for pair in _PAIR.finditer(source.text, start, _before_comment(source.text, start, end)):
            group = "double" if pair["double"] is not None else "single" if pair["single"] is not None else "bare"
            value = pair[group]
            value_span = source.index.span(pair.start(group), pair.end(group))
            known = UNKNOWN if "%" in value else value
            start_of, end_of = pair.start("name"), pair.end(group)
            found[pair["name"]] = Setting(
                pair["name"], known, source.index.span(start_of, end_of), source.text[start_of:end_of], value_span
            )
    return found

"""`Procfile`s (Heroku, Dokku, foreman, honcho, overmind): each `name: command` line is a process,
its command run by a shell (`sh -c`, Heroku's `bash -c`) as written.

The process manager gives each process `PORT`, a port number (foreman: 5000 for the first
process, 100 more for each next; Heroku: the port its router uses): `$PORT` is unknown but one
word, so unquoted it hides no flag, where another unset variable, unquoted, may stand for any
number of words and leaves the launch open-ended. The environment is open: the manager adds a
`.env` file (foreman, honcho) or the app's config vars (Heroku).
"""

from __future__ import annotations

import re

from ...readers.host_scripts import Expanded, Script
from ...source import SourceFile

_PROCESS = re.compile(r"^(?P<name>[\w-]+)[ \t]*:[ \t]*", re.MULTILINE)
_PORT = re.compile(r"\$(?:PORT\b|\{PORT\})")


def scripts(source: SourceFile) -> list[Script]:
    text = source.text
    found = []
    for process in _PROCESS.finditer(text):
        end = text.find("\n", process.end())
        end = len(text) if end < 0 else end
        if text[end - 1 : end] == "\r":
            end -= 1
        expanded = Expanded()
        position = process.end()
        for port in _PORT.finditer(text, position, end):
            quote = _quote_at(text, process.end(), port.start())
            if quote == "'":
                continue  # no expansion in single quotes
            expanded.exact(text[position : port.start()], position)
            expanded.unknown(port.start(), port.end(), one_word=not quote)
            position = port.end()
        expanded.exact(text[position:end], position)
        found.append(Script(expanded, {}, env_open=True))
    return found


def _quote_at(text: str, start: int, position: int) -> str:
    """The quote open at `position` of a shell line that starts at `start` ("" for none)."""
    quote = ""
    index = start
    while index < position:
        char = text[index]
        if char == "\\" and quote != "'":
            index += 2
            continue
        if char in "'\"" and quote in ("", char):
            quote = "" if quote else char
        index += 1
    return quote

"""A command line that no shell runs (a systemd `ExecStart=`, a tox `commands` line), written as
shell text that gives the shell interpreter the same words.

Both programs split words as a POSIX shell quotes them (single and double quotes, a backslash
before a character), but give no meaning to `;`, `|`, `&`, redirections, globs, `~` or a `#` in
the middle of a line: those are escaped for the shell, each standing for its one character in
the file. Each program's own substitutions (systemd's `$VAR`, `${VAR}` and `%` specifiers,
tox's `{...}`) are the caller's (`Substitute`). A backslash at the end of a line continues the
command; the program reads it as a space, which the shell's continuation gives too where a
space is next to it (kept as written, so a fix can add a continued line), and otherwise stands
for a space.
"""

from __future__ import annotations

from typing import Callable

from ...readers.host_scripts import Expanded

# (text, position, quote) -> characters of the file read, or 0 when `text[position]` is not a substitution
Substitute = Callable[[str, int, str, Expanded], int]

_LITERAL = frozenset(";&|<>()`*?[]~#!{}$")  # special to the shell, not to these programs
_LITERAL_IN_DOUBLE_QUOTES = frozenset("`$")


def translate(text: str, start: int, end: int, expanded: Expanded, substitute: Substitute, comments_continue: bool = False) -> None:
    """The command line `text[start:end]` into `expanded`. `comments_continue`: a line that
    starts with `#` or `;` inside a continued command is skipped (systemd.syntax(7))."""
    quote = ""
    position = start
    while position < end:
        char = text[position]
        if char == "\\" and text.startswith(("\n", "\r\n"), position + 1):
            position = _continue(text, position, end, expanded, quote, comments_continue)
            continue
        taken = substitute(text, position, quote, expanded) if quote != "'" else 0
        if taken:
            position += taken
            continue
        if char == "\\" and quote != "'" and position + 1 < end:
            expanded.exact(text[position : position + 2], position)
            position += 2
            continue
        if char in "'\"" and quote in ("", char):
            quote = "" if quote else char
        elif (not quote and char in _LITERAL) or (quote == '"' and char in _LITERAL_IN_DOUBLE_QUOTES):
            expanded.standing_for("\\" + char, position, position + 1)
            position += 1
            continue
        expanded.exact(char, position)
        position += 1


def _continue(text: str, backslash: int, end: int, expanded: Expanded, quote: str, comments_continue: bool) -> int:
    """A backslash that ends a line: the next line continues the command."""
    newline = text.index("\n", backslash)
    following = newline + 1
    if comments_continue:
        while following < end and text[following:].lstrip(" \t")[:1] in ("#", ";"):
            skipped = text.find("\n", following)
            following = end if skipped < 0 else skipped + 1
    spaced = (backslash > 0 and text[backslash - 1] in " \t") or text[following : following + 1] in (" ", "\t")
    if spaced and not quote:
        expanded.exact("\\\n", backslash)  # the shell's continuation: the same words
    else:
        expanded.standing_for(" ", backslash, following)
    return following


def ends_continued(line: str) -> bool:
    return line.rstrip("\r").endswith("\\")

"""Bash's quoting: the escapes of ANSI-C quoting (`$'...'`; None for `\\cX`, a control character
bash computes from the next one, which replaylint does not model) and the backslashes bash
removes inside double quotes."""

from __future__ import annotations

import re
from typing import Iterator

_SIMPLE = {
    "a": "\a",
    "b": "\b",
    "e": "\x1b",
    "E": "\x1b",
    "f": "\f",
    "n": "\n",
    "r": "\r",
    "t": "\t",
    "v": "\v",
    "\\": "\\",
    "'": "'",
    '"': '"',
    "?": "?",
}
_NUMERIC = re.compile(r"\\(x[0-9a-fA-F]{1,2}|u[0-9a-fA-F]{1,4}|U[0-9a-fA-F]{1,8}|[0-7]{1,3}|c.)")


def decode_ansi_c(body: str) -> str | None:
    out: list[str] = []
    index = 0
    while index < len(body):
        char = body[index]
        if char != "\\" or index + 1 >= len(body):
            out.append(char)
            index += 1
            continue
        following = body[index + 1]
        if following in _SIMPLE:
            out.append(_SIMPLE[following])
            index += 2
            continue
        match = _NUMERIC.match(body, index)
        if match is None:
            out.append(char)
            index += 1
            continue
        code = match.group(1)
        if code.startswith("c"):
            return None
        if code[0] in "xuU":
            out.append(chr(int(code[1:], 16)))
        else:
            out.append(chr(int(code, 8) & 0xFF))
        index = match.end()
    return "".join(out)


def double_quoted_runs(text: str) -> Iterator[tuple[str, int, int]]:
    """(text, start, end) of the pieces of a double-quoted string's literal text: a backslash
    before `$`, a backquote, `"`, a backslash or a newline is removed (with the newline)."""
    run_start = 0
    index = 0
    while index < len(text):
        if text[index] == "\\" and index + 1 < len(text) and text[index + 1] in '$`"\\\n':
            if index > run_start:
                yield text[run_start:index], run_start, index
            if text[index + 1] != "\n":
                yield text[index + 1], index, index + 2
            index += 2
            run_start = index
            continue
        index += 1
    if run_start < len(text):
        yield text[run_start:], run_start, len(text)

"""Names and text from a checked tree, made safe to print on a terminal or in a CI log.

A file name or a launch line may hold anything but `/` and NUL: a line break that starts a
line of its own (`a\\n::stop-commands::x\\n.sh` makes the GitHub runner ignore every later
annotation), an ESC that drives the terminal, a bidi control that shows text in another order.
`printable` shows each character that is not printable as Python's `repr` does (`\\n`, `\\x1b`,
`\\u202e`; an undecodable byte kept as a lone surrogate as `\\xff`), and breaks the markers that
CI runners act on anywhere in a line (`##vso[` for Azure Pipelines, `##[` for the GitHub runner's
older commands) by showing their second `#` as `\\x23`. A backslash is left as it is: launch
lines are full of them.
"""

from __future__ import annotations

import re

_RUNNER_MARKER = r"(?<=#)#(?=(?:vso)?\[)"  # compiled by `re` when first met: most runs print no such text
_SHORT = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def printable(text: str) -> str:
    if text.isprintable() and "##" not in text:
        return text  # nearly always: one C-level scan
    return re.sub(_RUNNER_MARKER, r"\\x23", controls_escaped(text), flags=re.IGNORECASE)


def controls_escaped(text: str, keep: str = "") -> str:
    """`text` with every character that is not printable escaped, but those in `keep` (which
    the caller escapes its own way: a CI format's `%0A`)."""
    if text.isprintable():
        return text
    return "".join(character if character.isprintable() or character in keep else _escaped(character) for character in text)


def printable_path(path: str) -> str:
    """`path` as the text formats print it at the start of a line: escaped, and with `./` before
    a relative name that a runner would read as a command (`::error::...` after leading spaces)."""
    shown = printable(path)
    return f"./{shown}" if shown.lstrip(" ").startswith("::") else shown


def _escaped(character: str) -> str:
    if character in _SHORT:
        return _SHORT[character]
    code = ord(character)
    if 0xDC80 <= code <= 0xDCFF:  # a byte that did not decode (surrogateescape)
        return f"\\x{code - 0xDC00:02x}"
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"

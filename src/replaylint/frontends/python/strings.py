"""Python string literals that a shell will run (`os.system("vllm serve ...")`): their text
after Python's own unescaping (`\\n`, `\\x41`, `{{` in an f-string; an f-string's `{...}` as an
unknown expansion), the file offset of every character, and how text written back into the
literal must be escaped; a string `" ".join(cmd)` makes of a word list.
"""

from __future__ import annotations

import re
import warnings
from typing import TYPE_CHECKING, Callable

from ...records import record
from ...regexes import on_use

if TYPE_CHECKING:  # libcst is imported where a file is parsed: the value flow imports this module without it
    import libcst as cst

# Escape sequences of a Python string literal; `{{`/`}}` in an f-string's text.
_BACKSLASH_ESCAPE = re.compile(r"\\(?:\r\n|\n|N\{[^}]*\}|x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|[0-7]{1,3}|.)", re.DOTALL)
_BRACES = re.compile(r"\{\{|\}\}")
_ESCAPE = on_use(f"{_BACKSLASH_ESCAPE.pattern}|{_BRACES.pattern}", re.DOTALL)


@record
class ShellString:
    """The text of a Python string a shell will run, and where each character sits in the file."""

    text: str
    offsets: list[int]  # offsets[i]: file offset of character i; offsets[len(text)]: the end
    escape: Callable[[str], str] | None  # how written text is escaped (None: it cannot be)
    style: tuple[str, bool] = ("", False)  # the quote and whether an f-string


def python_quote(quote: str):
    def render(word: str) -> str:
        body = word.replace("\\", "\\\\").replace(quote, "\\" + quote)
        return f"{quote}{body}{quote}"

    return render


def _python_escape(quote: str, fstring: bool) -> Callable[[str], str]:
    """Text written inside a (non-raw) string literal delimited by `quote`."""

    def escape(text: str) -> str:
        text = text.replace("\\", "\\\\").replace(quote[0], "\\" + quote[0]).replace("\n", "\\n")
        return text.replace("{", "{{").replace("}", "}}") if fstring else text

    return escape


def _unescape(sequence: str) -> str:
    if sequence[1:] in ("\n", "\r\n"):
        return ""  # a backslash at the end of a line continues the string
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # `\d`: kept as is, with a warning from Python 3.12
        return sequence.encode("latin-1", "backslashreplace").decode("unicode_escape")


def decoded_script(pieces: list, raw: bool, quote: str, fstring: bool) -> ShellString:
    """The text of a literal's pieces (its text parts and, for an f-string, its `{...}` parts),
    each character with its offset in the file."""
    text: list[str] = []
    offsets: list[int] = []
    end = 0
    sequences = (_BRACES if raw else _ESCAPE) if fstring else (None if raw else _BACKSLASH_ESCAPE)
    for piece in pieces:
        if piece[0] is None:  # `${___}` is longer than `{x}`: never "exact", so never edited
            _, start, end = piece
            placeholder = "${" + "_" * (end - start) + "}"
            text.append(placeholder)
            offsets.extend([start] * len(placeholder))
            continue
        body, start = piece
        position = 0
        for match in sequences.finditer(body) if sequences is not None else ():
            for offset in range(position, match.start()):
                text.append(body[offset])
                offsets.append(start + offset)
            decoded = match.group()[0] if match.group() in ("{{", "}}") else _unescape(match.group())
            text.extend(decoded)
            offsets.extend([start + match.start()] * len(decoded))
            position = match.end()
        for offset in range(position, len(body)):
            text.append(body[offset])
            offsets.append(start + offset)
        end = start + len(body)
    offsets.append(end)
    escape = None if raw else _python_escape(quote, fstring)
    return ShellString("".join(text), offsets, escape, (quote, fstring))


# The characters `shlex.quote` leaves unquoted: a word of only these is one word to the shell.
_SHELL_SAFE = on_use(r"[\w@%+=:,./-]+", re.ASCII)


def shell_safe(word: str) -> bool:
    """Whether the shell reads `word`, written unquoted, back as that one word."""
    return _SHELL_SAFE.fullmatch(word) is not None


def joined_words(node: cst.BaseExpression | None) -> cst.BaseExpression | None:
    """The list `" ".join(cmd)` joins into one shell string (a single space between words), else None."""
    import libcst as cst

    if not (isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and node.func.attr.value == "join"):
        return None
    separator = node.func.value
    one = isinstance(separator, cst.SimpleString) and separator.evaluated_value == " "
    return node.args[0].value if one and len(node.args) == 1 and node.args[0].keyword is None and not node.args[0].star else None

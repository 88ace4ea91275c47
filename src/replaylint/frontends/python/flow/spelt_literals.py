"""Where the characters of a text are written when its literal is several joined by Python (`("vllm serve m "
"--return-sampling-mask")`, the same with f-strings): each part placed in its own literal, so that a word of a
command line split from the text sits on the line of the part it is in. Only characters spelt as they are count:
an escape, a doubled brace or a format spec leaves the rest of the text at the whole literal."""

from __future__ import annotations

import ast
import re

from ....records import record
from .facts import Val
from .module import Module

_OPENING = re.compile(r"[rRuUfF]{0,2}('''|\"\"\"|'|\")")
_BETWEEN = re.compile(r"(?:\s|\\\r?\n|#[^\r\n]*)*")  # between joined literals: spaces, line continuations, comments
_MAX_TEXT = 4096  # characters of a text placed part by part (`shell_strings` reads no longer command)
_CLOSING_REPLACEMENT = re.compile(r"\s*(?:![rsa])?\s*\}")  # after a replacement's expression: `!r}`, `}`


@record
class Cursor:
    """Where the reading of a literal's source stands: `at` an offset of the module's text, `quote` the open
    literal's quote (None: before a literal's prefix; `_UNSEEN`: inside one whose quote was not read, which
    ends where the text stops being spelt), `lost` once something is not spelt as it is."""

    at: int
    quote: str | None = None
    formatted: bool = False
    lost: bool = False


_UNSEEN = "\0"  # no source holds a NUL character


def joined_parts(module: Module, node: ast.Constant) -> tuple[Val, ...]:
    """The parts of a text written as several joined literals, each placed where it is written; () for one
    literal, or when the parts cannot be placed (an escape)."""
    text = node.value
    span = module.span(node)
    if not isinstance(text, str) or span.end - span.start == len(text) + 2 or len(text) > _MAX_TEXT:
        return ()  # one plain literal (`"..."`): its characters are placed already; a long text is no command line
    cursor = Cursor(span.start)
    placed = spelt(module, cursor, text)
    return placed if len(placed) > 1 else ()


def spelt(module: Module, cursor: Cursor, text: str) -> tuple[Val, ...]:
    """`text`'s characters from the cursor on, one `Val` per literal they are written in; () when they are not
    spelt as they are (the cursor is then lost). Moves the cursor past them."""
    source = module.source.text
    found: list[Val] = []
    done = 0
    while text and not cursor.lost and (cursor.quote is not None or _open(source, cursor)):
        begin = cursor.at
        quote = cursor.quote or ""
        while done < len(text) and not source.startswith(quote, cursor.at):
            char = text[done]
            if cursor.at == len(source) or source[cursor.at] != char or char == "\\" or (cursor.formatted and char in "{}"):
                cursor.lost = True
                return ()
            cursor.at += 1
            done += 1
        if cursor.at > begin:
            found.append(Val(text[done - (cursor.at - begin) : done], span=module.source.index.span(begin, cursor.at)))
        if done == len(text):
            return tuple(found)
        cursor.at = _BETWEEN.match(source, cursor.at + len(quote)).end()
        cursor.quote = None
    cursor.lost = True
    return ()


def past_replacement(module: Module, cursor: Cursor, value: ast.FormattedValue) -> None:
    """Moves the cursor past an f-string's replacement (`{model}`, `{port!r}`); one with a format spec loses it.
    A cursor lost before is found again after the replacement, inside a literal whose quote it has not read."""
    source = module.source.text
    expression = module.span(value.value)
    if not cursor.lost and cursor.quote is not None and source.startswith(cursor.quote, cursor.at):
        cursor.at = _BETWEEN.match(source, cursor.at + len(cursor.quote)).end()  # `f"a " f"{x}"`: the next literal
        cursor.quote = None
    if not cursor.lost and cursor.quote is None:
        _open(source, cursor)
    closing = _CLOSING_REPLACEMENT.match(source, expression.end)
    if value.format_spec is not None or closing is None:
        cursor.lost = True
        return
    if cursor.lost or source[cursor.at : expression.start].strip() != "{":
        cursor.quote, cursor.formatted, cursor.lost = _UNSEEN, True, False
    cursor.at = closing.end()


def _open(source: str, cursor: Cursor) -> bool:
    opening = _OPENING.match(source, cursor.at)
    if opening is None:
        cursor.lost = True
        return False
    cursor.quote, cursor.at = opening.group(1), opening.end()
    cursor.formatted = "f" in opening.group().lower()
    return True

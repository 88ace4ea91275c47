"""Scalars as text whose every character knows its source offsets (`Text`), so that a word cut
out of a quoted, escaped or folded scalar (or out of a shell script inside one) still has an
exact span. `scalar_text` rebuilds the value of a scalar from its source, following PyYAML's
scanner, and only trusts the result when it equals the parsed value.
"""

from __future__ import annotations

from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from ..records import record
from .yaml_nodes import BREAKS, HOLE, READ_LIMIT, ComposeError, compose_all, content_end, line_start, spend

_TEXT = "_replaylint_text"  # a scalar's Text, kept on the node with the text it was read from
_REREAD = f"its aliases (`*name`) stand for more than {READ_LIMIT:,} characters of scalars to read"

# -- Text: strings with source offsets -----------------------------------------------------------


@record(unsafe_hash=True)
class Text:
    """A string and, for each character, the source region (start, end) it came from.

    `exact` is False when the positions are only approximate (the whole scalar), in which
    case edits inside it are not offered.
    """

    value: str
    starts: tuple[int, ...]
    ends: tuple[int, ...]
    exact: bool = True
    # Where an empty text sits (and the end of the text when it is empty).
    anchor: tuple[int, int] = (0, 0)

    def __len__(self) -> int:
        return len(self.value)

    def region(self, start: int, end: int) -> tuple[int, int]:
        """Source offsets of `value[start:end]`."""
        if start >= end:
            at = self.starts[start] if start < len(self.value) else (self.ends[-1] if self.value else self.anchor[1])
            return at, at
        return self.starts[start], self.ends[end - 1]

    def offset(self, position: int) -> int:
        """Source offset of a position between characters (`to_offset` for embedded scripts)."""
        if position < len(self.value):
            return self.starts[position]
        return self.ends[-1] if self.value else self.anchor[1]

    def slice(self, start: int, end: int) -> Text:
        a, b = self.region(start, end)
        return Text(self.value[start:end], self.starts[start:end], self.ends[start:end], self.exact, (a, b))

    @property
    def known(self) -> bool:
        return HOLE not in self.value

    @classmethod
    def join(cls, parts: list[Text]) -> Text:
        if not parts:
            return cls("", (), ())
        return cls(
            "".join(p.value for p in parts),
            tuple(o for p in parts for o in p.starts),
            tuple(o for p in parts for o in p.ends),
            all(p.exact for p in parts),
            (parts[0].anchor[0], parts[-1].anchor[1]),
        )

    @classmethod
    def filled(cls, value: str, start: int, end: int, exact: bool = True) -> Text:
        """`value` standing for the source region start..end as a whole (a substitution)."""
        return cls(value, (start,) * len(value), (end,) * len(value), exact, (start, end))


def scalar_text(text: str, node: ScalarNode) -> Text:
    """The value of a scalar with the source region of each character, read once per node.
    Each later read counts its characters as read (`yaml_nodes.spend`): `[*s, *s, ...]`
    makes one 100 KB scalar 20,000 words."""
    cached = node.__dict__.get(_TEXT)
    if cached is not None and cached[0] is text:
        spend(len(node.value), node.start_mark.index, _REREAD)
        return cached[1]
    found = _scalar_text(text, node)
    node.__dict__[_TEXT] = (text, found)
    return found


def _scalar_text(text: str, node: ScalarNode) -> Text:
    start, end = node.start_mark.index, node.end_mark.index
    pairs: list[tuple[str, int, int]] | None
    style = node.style or ""
    try:
        if style == "":
            pairs = _flow(text, start, end, "")
        elif style in ("'", '"'):
            pairs = _flow(text, start + 1, end - 1, style)
        else:
            pairs = _block(text, start, end, node.value)
    except (IndexError, ValueError):
        pairs = None
    if pairs is not None and "".join(c for c, _, _ in pairs) == node.value:
        return Text(node.value, tuple(s for _, s, _ in pairs), tuple(e for _, _, e in pairs), True, (start, end))
    return Text(node.value, (start,) * len(node.value), (end,) * len(node.value), False, (start, end))


def _break_at(text: str, i: int) -> int:
    """Width of the line break at `i` (0 when none)."""
    if text.startswith("\r\n", i):
        return 2
    return 1 if i < len(text) and text[i] in BREAKS else 0


_ESCAPES = {
    "0": "\0",
    "a": "\x07",
    "b": "\x08",
    "t": "\t",
    "\t": "\t",
    "n": "\n",
    "v": "\x0b",
    "f": "\x0c",
    "r": "\r",
    "e": "\x1b",
    " ": " ",
    '"': '"',
    "/": "/",
    "\\": "\\",
    "N": "\x85",
    "_": "\xa0",
    "L": "\u2028",
    "P": "\u2029",
}
_HEX = {"x": 2, "u": 4, "U": 8}


def _flow(text: str, i: int, end: int, quote: str) -> list[tuple[str, int, int]]:
    """Plain and quoted scalars: escapes and line folding (PyYAML scan_plain / scan_flow_scalar)."""
    out: list[tuple[str, int, int]] = []
    while i < end:
        c = text[i]
        width = _break_at(text, i)
        if width or c in " \t":
            # A run of blanks, maybe with line breaks: trailing blanks before a break vanish.
            j = i
            while j < end and text[j] in " \t":
                j += 1
            width = _break_at(text, j) if j < end else 0
            if not width:
                out.extend((text[k], k, k + 1) for k in range(i, j))
                i = j
                continue
            first = (j, j + width)
            j += width
            breaks: list[tuple[int, int]] = []
            while j < end:
                if text[j] in " \t":
                    j += 1
                    continue
                w = _break_at(text, j)
                if not w:
                    break
                breaks.append((j, j + w))
                j += w
            if not breaks:
                out.append((" ", first[0], first[1]))
            out.extend(("\n", s, e) for s, e in breaks)
            i = j
            continue
        if quote == "'" and c == "'" and i + 1 < end and text[i + 1] == "'":
            out.append(("'", i, i + 2))
            i += 2
            continue
        if quote == '"' and c == "\\":
            nxt = text[i + 1]
            if nxt in _ESCAPES:
                out.append((_ESCAPES[nxt], i, i + 2))
                i += 2
            elif nxt in _HEX:
                digits = _HEX[nxt]
                out.append((chr(int(text[i + 2 : i + 2 + digits], 16)), i, i + 2 + digits))
                i += 2 + digits
            elif _break_at(text, i + 1):
                # An escaped line break: nothing, then the next line's leading blanks go.
                j = i + 1 + _break_at(text, i + 1)
                while j < end:
                    if text[j] in " \t":
                        j += 1
                        continue
                    w = _break_at(text, j)
                    if not w:
                        break
                    out.append(("\n", j, j + w))
                    j += w
                i = j
            else:
                raise ValueError("unknown escape")
            continue
        out.append((c, i, i + 1))
        i += 1
    return out


def _block(text: str, start: int, end: int, expected: str) -> list[tuple[str, int, int]] | None:
    """Literal and folded block scalars (PyYAML scan_block_scalar), trying each indentation."""
    folded = text[start] == ">"
    i = start + 1
    chomping: bool | None = None
    while i < end and text[i] in "+-0123456789":
        if text[i] in "+-":
            chomping = text[i] == "+"
        i += 1
    header_end = text.find("\n", i)
    if header_end == -1 or header_end >= end:
        return [] if expected == "" else None
    body = header_end + 1
    first_indent = None
    j = body
    while j < end:
        k = j
        while k < end and text[k] == " ":
            k += 1
        if k < end and not _break_at(text, k):
            first_indent = k - j
            break
        j = k + max(1, _break_at(text, k))
    candidates = [first_indent] if first_indent is not None else []
    candidates += [n for n in range(1, (first_indent or 1) + 8) if n != first_indent]
    for indent in candidates:
        pairs = _block_with(text, body, end, indent, folded, chomping)
        if "".join(c for c, _, _ in pairs) == expected:
            return pairs
    return None


def _block_with(text: str, i: int, end: int, indent: int, folded: bool, chomping: bool | None) -> list[tuple[str, int, int]]:
    out: list[tuple[str, int, int]] = []

    def column(position: int) -> int:
        return position - line_start(text, position)

    def breaks_from(position: int) -> tuple[list[tuple[str, int, int]], int]:
        found = []
        while position < end and text[position] == " " and column(position) < indent:
            position += 1
        while position < end and _break_at(text, position):
            w = _break_at(text, position)
            found.append(("\n", position, position + w))
            position += w
            while position < end and text[position] == " " and column(position) < indent:
                position += 1
        return found, position

    breaks, i = breaks_from(i)
    line_break: tuple[str, int, int] | None = None
    while i < end and column(i) == indent:
        out.extend(breaks)
        leading_non_space = text[i] not in " \t"
        j = i
        while j < end and not _break_at(text, j):
            j += 1
        out.extend((text[k], k, k + 1) for k in range(i, j))
        w = _break_at(text, j) if j < end else 0
        line_break = ("\n", j, j + w) if w else None
        i = j + w
        breaks, i = breaks_from(i)
        if i < end and column(i) == indent:
            if folded and line_break is not None and leading_non_space and text[i] not in " \t":
                if not breaks:
                    out.append((" ", line_break[1], line_break[2]))
            elif line_break is not None:
                out.append(line_break)
        else:
            break
    if chomping is not False and line_break is not None:
        out.append(line_break)
    if chomping is True:
        out.extend(breaks)
    return out


def shared_regions(text: str) -> list[tuple[int, int]]:
    """Source regions of nodes reached from more than one place (an anchor used by aliases or
    merge keys): an edit there would change every user of the anchor."""
    try:
        documents = compose_all(text)
    except ComposeError:
        return []
    counts: dict[int, int] = {}
    nodes: dict[int, Node] = {}
    stack: list[Node] = list(documents)
    while stack:
        node = stack.pop()
        counts[id(node)] = counts.get(id(node), 0) + 1
        if id(node) in nodes:
            continue
        nodes[id(node)] = node
        if isinstance(node, MappingNode):
            for key, value in node.value:
                stack.extend((key, value))
        elif isinstance(node, SequenceNode):
            stack.extend(node.value)
    return [(n.start_mark.index, content_end(text, n)) for i, n in nodes.items() if counts[i] > 1]

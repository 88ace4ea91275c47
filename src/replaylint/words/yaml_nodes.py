"""YAML nodes with positions: composing documents, reading mappings, scalar text with offsets.

Documents are *composed*, never constructed: the composer keeps every node's position
(`start_mark.index` is a character offset into the decoded text), accepts custom tags
(`!Ref`), and resolves aliases to the anchored node. Merge keys (`<<: *base`) are resolved
here, with explicit keys winning as in YAML 1.1. Values are constructed only on demand, per
node, with PyYAML's safe constructor (what `yaml.safe_load` would give).

`Text` is a string whose every character knows the source offsets it came from, so that a
word cut out of a quoted, escaped or folded scalar (or out of a shell script inside one) still
has an exact span. `scalar_text` rebuilds the value of a scalar from its source, following
PyYAML's scanner, and only trusts the result when it equals the parsed value.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any, Iterator

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from ..model import UNKNOWN, LineIndex, Span

_Loader = getattr(yaml, "CSafeLoader", None) or yaml.SafeLoader

STR = "tag:yaml.org,2002:str"
MERGE = "tag:yaml.org,2002:merge"
_BREAKS = "\r\n\x85\u2028\u2029"
_MAX_DEPTH = 64

# A character of a `Text` whose value is not known (an unresolved variable). Words holding
# one are unknown words.
HOLE = "\x00"


class ComposeError(Exception):
    def __init__(self, message: str, line: int, col: int) -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.col = col


def compose_all(text: str) -> list[Node]:
    """Every document of a YAML stream (empty documents are skipped)."""
    try:
        return [node for node in yaml.compose_all(text, Loader=_Loader) if node is not None]
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        problem = error.problem or error.context or "invalid YAML"
        line, col = (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)
        raise ComposeError(f"YAML syntax error: {problem}", line, col) from None
    except yaml.YAMLError as error:
        raise ComposeError(f"YAML error: {error}", 1, 1) from None
    except RecursionError:
        raise ComposeError("YAML file is nested too deeply to parse", 1, 1) from None


# -- reading nodes ---------------------------------------------------------------------------


def entries(node: Node | None, depth: int = 0) -> list[tuple[ScalarNode, Node]]:
    """Key/value pairs of a mapping, merge keys resolved (explicit keys win), scalar keys only."""
    if not isinstance(node, MappingNode) or depth > _MAX_DEPTH:
        return []
    explicit: list[tuple[ScalarNode, Node]] = []
    merged: list[tuple[ScalarNode, Node]] = []
    for key, value in node.value:
        if isinstance(key, ScalarNode) and key.tag == MERGE:
            sources = value.value if isinstance(value, SequenceNode) else [value]
            for source in sources:
                merged.extend(entries(source, depth + 1))
        elif isinstance(key, ScalarNode):
            explicit.append((key, value))
    if not merged:
        return explicit
    names = {key.value for key, _ in explicit}
    seen: set[str] = set()
    result = []
    for key, value in merged:
        if key.value not in names and key.value not in seen:
            seen.add(key.value)
            result.append((key, value))
    return result + explicit


def mapping(node: Node | None) -> dict[str, tuple[ScalarNode, Node]]:
    """Keys to (key node, value node); the last duplicate wins, as in the constructor.
    Computed once per node (composed nodes are never changed)."""
    if not isinstance(node, MappingNode):
        return {}
    cached = node.__dict__.get("_replaylint_mapping")
    if cached is None:
        cached = node.__dict__["_replaylint_mapping"] = {key.value: (key, value) for key, value in entries(node)}
    return cached


def get(node: Node | None, *path: str) -> Node | None:
    for name in path:
        found = mapping(node).get(name)
        if found is None:
            return None
        node = found[1]
    return node


def get_str(node: Node | None, *path: str) -> str | None:
    value = get(node, *path)
    return value.value if isinstance(value, ScalarNode) and value.tag == STR else None


def items(node: Node | None) -> list[Node]:
    return list(node.value) if isinstance(node, SequenceNode) else []


def walk(node: Node, depth: int = 0, seen: set[int] | None = None) -> Iterator[tuple[Node, tuple[str, ...]]]:
    """Every node with its key path, each node once (aliases are not walked twice)."""
    seen = set() if seen is None else seen
    stack: list[tuple[Node, tuple[str, ...]]] = [(node, ())]
    while stack:
        current, path = stack.pop()
        if id(current) in seen or len(path) > _MAX_DEPTH:
            continue
        seen.add(id(current))
        yield current, path
        if isinstance(current, MappingNode):
            for key, value in reversed(entries(current)):
                stack.append((value, path + (str(key.value),)))
        elif isinstance(current, SequenceNode):
            for position, item in reversed(list(enumerate(current.value))):
                stack.append((item, path + (f"[{position}]",)))


_LOCAL = threading.local()


def walked(document: Node) -> list[tuple[Node, tuple[str, ...]]]:
    """`walk(document)` as a list, computed once per document while a file is read (several
    readers look); `forget_walks` drops them when the file is done."""
    cache: dict[int, tuple[Node, list[tuple[Node, tuple[str, ...]]]]] | None = getattr(_LOCAL, "walks", None)
    if cache is None:
        cache = _LOCAL.walks = {}
    found = cache.get(id(document))
    if found is None or found[0] is not document:
        found = cache[id(document)] = (document, list(walk(document)))
    return found[1]


def forget_walks() -> None:
    _LOCAL.walks = {}


_constructor = yaml.constructor.SafeConstructor()


def construct(node: Node) -> Any:
    """The value `yaml.safe_load` gives for this node; UNKNOWN for tags it cannot build."""
    try:
        value = _constructor.construct_object(node, deep=True)
    except (yaml.YAMLError, ValueError, TypeError, OverflowError, RecursionError):
        value = UNKNOWN
    finally:
        _constructor.constructed_objects.clear()
        _constructor.recursive_objects.clear()
    return value


# -- spans -----------------------------------------------------------------------------------


def content_end(text: str, node: Node) -> int:
    """Where a node's own text ends: block scalars and block collections lose trailing
    blank lines and comments that their end mark includes."""
    if isinstance(node, ScalarNode):
        end = node.end_mark.index
        if node.style in ("|", ">"):
            while end > node.start_mark.index and text[end - 1] in " \t\r\n":
                end -= 1
        return end
    if node.flow_style or not node.value:
        return node.end_mark.index
    last = node.value[-1]
    return content_end(text, last[1] if isinstance(node, MappingNode) else last)


def span(index: LineIndex, node: Node, start_node: Node | None = None) -> Span:
    start = (start_node or node).start_mark.index
    return index.span(start, max(start, content_end(index.text, node)))


def source(text: str, node: Node) -> str:
    return text[node.start_mark.index : content_end(text, node)]


def dash_of(text: str, item: Node) -> int | None:
    """Offset of the `-` that introduces a block sequence item (None in a flow sequence)."""
    position = item.start_mark.index - 1
    while position >= 0 and text[position] in " \t":
        position -= 1
    if position >= 0 and text[position] == "-":
        return position
    return None


def line_start(text: str, offset: int) -> int:
    return text.rfind("\n", 0, offset) + 1


def line_end(text: str, offset: int) -> int:
    """Offset of the line break ending the line of `offset` (or the end of the text)."""
    end = text.find("\n", offset)
    if end == -1:
        return len(text)
    return end - 1 if end > 0 and text[end - 1] == "\r" else end


def next_line(text: str, offset: int) -> int:
    end = text.find("\n", offset)
    return len(text) if end == -1 else end + 1


# -- Text: strings with source offsets -----------------------------------------------------------


@dataclass(frozen=True)
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
    """The value of a scalar with the source region of each character."""
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
    return 1 if i < len(text) and text[i] in _BREAKS else 0


_ESCAPES = {
    "0": "\0", "a": "\x07", "b": "\x08", "t": "\t", "\t": "\t", "n": "\n", "v": "\x0b", "f": "\x0c",
    "r": "\r", "e": "\x1b", " ": " ", '"': '"', "/": "/", "\\": "\\", "N": "\x85", "_": "\xa0",
    "L": "\u2028", "P": "\u2029",
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

"""YAML nodes with positions: composing documents, reading mappings, scalar text with offsets.

Documents are *composed*, never constructed: the composer keeps every node's position
(`start_mark.index` is a character offset into the decoded text), accepts custom tags
(`!Ref`), and resolves aliases to the anchored node. Merge keys (`<<: *base`) are resolved
here, with explicit keys winning as in YAML 1.1. Values are constructed only on demand, per
node, with PyYAML's safe constructor (what `yaml.safe_load` would give).
Scalar text with offsets is `yaml_text`'s.
"""

from __future__ import annotations

import threading
from typing import Any, Iterator

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from ..model import UNKNOWN, LineIndex, Span

_Loader = getattr(yaml, "CSafeLoader", None) or yaml.SafeLoader

STR = "tag:yaml.org,2002:str"
MERGE = "tag:yaml.org,2002:merge"
BREAKS = "\r\n\x85\u2028\u2029"
_MAX_MERGES = 64  # merge keys (`<<: *base`) followed inside one another

# A character of a `Text` whose value is not known (an unresolved variable). Words holding
# one are unknown words.
HOLE = "\x00"


_LIBYAML_TOO_DEEP = "exceeded maximum nesting depth"  # libyaml stops at 1,000 levels


class ComposeError(Exception):
    def __init__(self, message: str, line: int, col: int) -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.col = col


class NestedTooDeep(ComposeError):
    """Valid YAML nested deeper than the YAML reader follows (libyaml stops at 1,000 levels)."""


def compose_all(text: str) -> list[Node]:
    """Every document of a YAML stream (empty documents are skipped)."""
    try:
        return [node for node in yaml.compose_all(text, Loader=_Loader) if node is not None]
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        problem = error.problem or error.context or "invalid YAML"
        line, col = (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)
        if problem == _LIBYAML_TOO_DEEP:  # valid YAML, deeper than libyaml reads
            raise NestedTooDeep(f"YAML nested deeper than the YAML reader takes ({problem})", line, col) from None
        raise ComposeError(f"YAML syntax error: {problem}", line, col) from None
    except yaml.YAMLError as error:
        raise ComposeError(f"YAML error: {error}", 1, 1) from None
    except RecursionError:  # PyYAML's composer without libyaml
        raise NestedTooDeep("YAML nested deeper than the YAML reader takes", 1, 1) from None


# -- reading nodes ---------------------------------------------------------------------------


def entries(node: Node | None, depth: int = 0) -> list[tuple[ScalarNode, Node]]:
    """Key/value pairs of a mapping, merge keys resolved (explicit keys win), scalar keys only."""
    if not isinstance(node, MappingNode) or depth > _MAX_MERGES:
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
        if id(current) in seen:
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

"""YAML nodes with positions: composing documents, reading mappings, scalar text with offsets.

Documents are *composed*, never constructed: the composer keeps every node's position
(`start_mark.index` is a character offset into the decoded text), accepts custom tags
(`!Ref`), and resolves aliases to the anchored node. Merge keys (`<<: *base`) are resolved
here, once per node, with explicit keys winning as in YAML 1.1. Values are constructed only on
demand, per node, with PyYAML's safe constructor (what `yaml.safe_load` would give).
Scalar text with offsets is `yaml_text`'s.

Aliases let a few hundred bytes stand for 10^8 entries (`<<: [*a, *a, ...]` nested eight
times, or lists of lists of aliases). What the readers take is counted (`spend`): the entries
`entries` and `items` give, the nodes a constructed value holds, written out, and what
`yaml_text` and `yaml_scalars` read again or substitute. Past `READ_LIMIT` per composed text
the reader raises `OverBudget` (RPL902).
"""

from __future__ import annotations

import threading
from typing import Any, Iterator

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from ..model import UNKNOWN, LineIndex, Span
from ..source import WORK_LIMIT, NotAnalysed, OverBudget

_Loader = getattr(yaml, "CSafeLoader", None) or yaml.SafeLoader

STR = "tag:yaml.org,2002:str"
MERGE = "tag:yaml.org,2002:merge"
BREAKS = "\r\n\x85\u2028\u2029"
_MAX_MERGES = 64  # merge keys (`<<: *base`) followed inside one another
# Entries and nodes the readers may take from one composed text: a unit of a file's budget each
# (about a microsecond), so the bound is the file's own.
READ_LIMIT = WORK_LIMIT
_ENTRIES = "_replaylint_entries"  # a node's merged entries, kept on the node
_SIZE = "_replaylint_size"  # the nodes of its constructed value, aliases counted each time

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
    """Every document of a YAML stream (empty documents are skipped). What the readers take
    from it is counted from here (`READ_LIMIT`)."""
    _LOCAL.read = 0
    if "*" in text:
        _LOCAL.aliased = True
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


def only_document(text: str, kind: type[Node] = Node) -> Node | None:
    """The one document of a YAML text when it is a node of `kind`; None for a stream of another
    number of documents, another kind, or text that is not YAML (`ComposeError`)."""
    try:
        documents = compose_all(text)
    except ComposeError:
        return None
    return documents[0] if len(documents) == 1 and isinstance(documents[0], kind) else None


# -- reading nodes ---------------------------------------------------------------------------


def entries(node: Node | None) -> list[tuple[ScalarNode, Node]]:
    """Key/value pairs of a mapping, merge keys resolved (explicit keys win), scalar keys only.
    Raises `NotAnalysed` for merges nested deeper than `_MAX_MERGES`, `OverBudget` past
    `READ_LIMIT`."""
    if not isinstance(node, MappingNode):
        return []
    found = _merged(node, 0)
    _read(len(found), node)
    return found


def _merged(node: MappingNode, depth: int) -> list[tuple[ScalarNode, Node]]:
    """`entries`, computed once per node: each merge then copies its sources' resolved entries
    (a mapping's keys once each), never their sources' sources again."""
    cached = node.__dict__.get(_ENTRIES)
    if cached is not None:
        return cached
    if depth > _MAX_MERGES:
        raise NotAnalysed(f"merge keys (`<<: *base`) nested deeper than {_MAX_MERGES} are not read", node.start_mark.index)
    node.__dict__[_ENTRIES] = []  # while it is resolved: a mapping merged into itself adds nothing
    try:
        explicit: list[tuple[ScalarNode, Node]] = []
        merged: list[tuple[ScalarNode, Node]] = []
        for key, value in node.value:
            if isinstance(key, ScalarNode) and key.tag == MERGE:
                for source in value.value if isinstance(value, SequenceNode) else [value]:
                    if isinstance(source, MappingNode):
                        from_source = _merged(source, depth + 1)
                        _read(len(from_source), source)
                        merged.extend(from_source)
            elif isinstance(key, ScalarNode):
                explicit.append((key, value))
    except BaseException:
        del node.__dict__[_ENTRIES]
        raise
    result = _explicit_win(explicit, merged) if merged else explicit
    node.__dict__[_ENTRIES] = result
    return result


def _explicit_win(explicit: list[tuple[ScalarNode, Node]], merged: list[tuple[ScalarNode, Node]]) -> list[tuple[ScalarNode, Node]]:
    """Merged entries under the explicit ones: an explicit key wins, then the first source."""
    names = {key.value for key, _ in explicit}
    seen: set[str] = set()
    result = []
    for key, value in merged:
        if key.value not in names and key.value not in seen:
            seen.add(key.value)
            result.append((key, value))
    return result + explicit


_TOO_MANY = f"its aliases and merge keys (`<<: *base`) stand for more than {READ_LIMIT:,} YAML nodes to read"


def _read(units: int, node: Node) -> None:
    """Count what a reader takes from the text being read; past `READ_LIMIT`, `OverBudget`."""
    spend(units, node.start_mark.index, _TOO_MANY)


def spend(units: int, offset: int, message: str) -> None:
    """Count `units` of reading (nodes, or characters a substitution made) at `offset`; past
    `READ_LIMIT` for the text being read, `OverBudget` with `message`."""
    spent = getattr(_LOCAL, "read", 0) + units
    _LOCAL.read = spent
    if spent > READ_LIMIT:
        raise OverBudget(message, offset, steady=True)


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
    if not isinstance(node, SequenceNode):
        return []
    _read(len(node.value), node)
    return list(node.value)


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
    """The end of a YAML file: its walks, its count, and whether it held aliases."""
    _LOCAL.walks = {}
    _LOCAL.read = 0
    _LOCAL.aliased = False


class _Constructor(yaml.constructor.SafeConstructor):
    def construct_mapping(self, node: Node, deep: bool = False) -> dict:
        """A mapping with merge keys is built from a copy holding its resolved `entries`:
        PyYAML's own `flatten_mapping` changes the node in place and copies every merged
        entry at every level again (10^levels)."""
        if isinstance(node, MappingNode) and any(isinstance(key, ScalarNode) and key.tag == MERGE for key, _ in node.value):
            _check_merges(node)
            others = [(key, value) for key, value in node.value if not isinstance(key, ScalarNode)]
            node = MappingNode(node.tag, [*others, *_merged(node, 0)], node.start_mark, node.end_mark, node.flow_style)
        return super().construct_mapping(node, deep=deep)


def _check_merges(node: MappingNode) -> None:
    """What PyYAML refuses in a merge: a source that is not a mapping."""
    for key, value in node.value:
        if isinstance(key, ScalarNode) and key.tag == MERGE:
            sources = value.value if isinstance(value, SequenceNode) else [value]
            if not all(isinstance(source, MappingNode) for source in sources):
                raise yaml.constructor.ConstructorError(None, None, "a merge key takes mappings only", key.start_mark)


_constructor = _Constructor()


def construct(node: Node) -> Any:
    """The value `yaml.safe_load` gives for this node; UNKNOWN for tags it cannot build. Its
    nodes, aliases counted each time they appear, are counted as read: whoever reads the value
    may walk every one."""
    # Without an alias (no `*` in any text composed since the last file) a value has no more
    # nodes than its text, which the frontend has paid for.
    if getattr(_LOCAL, "aliased", True):
        try:
            _read(_size(node), node)
        except OverBudget as error:
            error.offset = _bulk(node).start_mark.index
            raise
    try:
        value = _constructor.construct_object(node, deep=True)
    except (yaml.YAMLError, ValueError, TypeError, OverflowError, RecursionError):
        value = UNKNOWN
    finally:
        _constructor.constructed_objects.clear()
        _constructor.recursive_objects.clear()
    return value


def _size(node: Node) -> int:
    """The nodes of `node`'s value written out, computed once per collection (a collection
    inside itself counts once: PyYAML will not build it). A loop, not recursion: a value 999
    levels deep (libyaml's limit) is counted too."""
    if isinstance(node, ScalarNode):
        return 1
    stack: list[tuple[Node, list[Node] | None]] = [(node, None)]
    while stack:
        current, children = stack.pop()
        if children is not None:
            current.__dict__[_SIZE] = 1 + sum(1 if isinstance(child, ScalarNode) else child.__dict__[_SIZE] for child in children)
        elif _SIZE not in current.__dict__:
            current.__dict__[_SIZE] = 1  # while its children are counted
            children = _children(current)
            stack.append((current, children))
            stack.extend((child, None) for child in children if not isinstance(child, ScalarNode))
    return node.__dict__[_SIZE]


def _children(node: Node) -> list[Node]:
    if isinstance(node, MappingNode):
        return [value for _, value in _merged(node, 0)]
    return node.value if isinstance(node, SequenceNode) else []


def _bulk(node: Node) -> Node:
    """The innermost value under `node` that alone stands for more than `READ_LIMIT` nodes
    (the anchor of one of the `[*a, *a, ...]`), for a message that points at it."""
    seen = {id(node)}
    while True:
        heavy = max(_children(node), key=_size, default=None)
        if heavy is None or _size(heavy) <= READ_LIMIT or id(heavy) in seen:
            return node
        seen.add(id(heavy))
        node = heavy


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

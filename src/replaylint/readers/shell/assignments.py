"""What assignments do: the value `NAME=...`, `NAME+=...` and `NAME[i]=...` give a variable,
the environment entry (setting and where to edit it) of a `VLLM_*` assignment, and every name
a piece of script may assign (loops, `read`, `printf -v`, functions it calls)."""

from __future__ import annotations

import re
from typing import Iterator, Mapping

from ...command import EnvPlace
from ...model import UNKNOWN, Setting
from .expand import Expander
from .grammar import Node
from .nodes import descendants, single_variable, words_of
from .place import Place, quoting
from .spans import ScriptSpans
from .values import UNSET, Array, Container, Field, Partial, Scalar, Value, assumptions, scalar_text
from .world import EnvEntry, World

_IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def assigned_value(
    name: str, value_node: Node | None, place: Place, expander: Expander, previous: Value | None, appending: bool
) -> Value | None:
    """A variable's new value; `+=` appends to the previous one (None: unknown)."""
    if value_node is not None and value_node.type == "array":
        start, end = place.range(place.parsed.start(value_node), place.parsed.end(value_node))
        container = Container(("array", start), end - 1, "array", place.layers)  # closes at `)`
        expander.words = container
        elements: list[Field] = []
        for element in value_node.named_children:
            if element.type != "comment":
                elements.extend(expander.fields(element))
        if not appending:
            return Array(tuple(elements))
        if previous is None:
            return Array((Field(None, start, start, f"${{{name}[@]}}", container, spread=True), *elements))
        if previous is UNSET:
            return Array(tuple(elements))
        if isinstance(previous, Array):
            before = previous.elements
        elif isinstance(previous, Partial):  # a string with unknown pieces becomes one unknown element
            before = (Field(None, start, start, f"${{{name}}}", container, chunks=previous.parts),)
        else:
            before = (Field(previous.text, 0, 0, "", container, chunks=previous.chunks),)  # type: ignore[union-attr]
        return Array((*before, *elements))
    bare = None
    if value_node is not None:
        start, end = place.range(place.parsed.start(value_node), place.parsed.end(value_node))
        bare = Container(("bare", start), end, "bare", place.layers)
    value = expander.value(value_node, bare)
    if not appending or value is None:
        return value
    if previous is None:
        return None
    if previous is UNSET:
        return value
    if isinstance(previous, Array):
        return None
    if isinstance(previous, Partial) or isinstance(value, Partial):
        return Partial(_pieces(previous) + _pieces(value))
    assert isinstance(previous, Scalar) and isinstance(value, Scalar)
    return Scalar(previous.chunks + value.chunks)


def _pieces(value: Value) -> tuple:
    return value.parts if isinstance(value, Partial) else value.chunks  # type: ignore[union-attr]


def assign_element(subscript: Node, value_node: Node | None, place: Place, world: World) -> World:
    name_node = subscript.child_by_field_name("name")
    index_node = subscript.child_by_field_name("index")
    if name_node is None:
        return world
    name = place.parsed.source(name_node)
    current = world.variables.get(name)
    index = place.parsed.source(index_node) if index_node is not None else ""
    expander = Expander(place, world.scope(), words_of(place, subscript))
    fields = expander.fields(value_node) if value_node is not None else []
    if isinstance(current, Array) and index.isdigit() and int(index) <= len(current.elements) and len(fields) == 1:
        elements = list(current.elements)
        if int(index) == len(elements):
            elements.append(fields[0])
        else:
            elements[int(index)] = fields[0]
        world.variables[name] = Array(tuple(elements))
    else:
        world.variables.pop(name, None)
    return world


def env_entry(
    spans: ScriptSpans, name: str, value: Value | None, node: Node, value_node: Node | None, statement: Node, place: Place, single: bool
) -> EnvEntry:
    start, end = place.range(place.parsed.start(node), place.parsed.end(node))
    if value_node is not None:
        value_start, value_end = place.range(place.parsed.start(value_node), place.parsed.end(value_node))
    else:
        value_start = value_end = end
    text = scalar_text(value) if value is not None and not isinstance(value, Array) else None
    defaults = sorted(assumed.condition for assumed in assumptions(value)) if value is not None and text is not None else []
    setting = Setting(
        name,
        UNKNOWN if text is None else text,
        spans.span(start, end),
        spans.source.text[start:end],
        spans.span(value_start, value_end),
        condition=" and ".join(defaults) or None,  # `VLLM_X=${X:-0}`: the value is a default
    )
    if statement.type == "declaration_command" and not single:
        removal = spans.word_removal(start, end)
    else:
        removal = spans.statement_removal(*place.range(place.parsed.start(statement), place.parsed.end(statement)))
    return EnvEntry(
        setting,
        EnvPlace(removal, spans.span(value_start, value_end), quoting(place.layers))
        if place.starts is None or place.exact(place.parsed.start(node), place.parsed.end(node))
        else None,
    )


def assigned_names(node: Node, place: Place, functions: Mapping[str, tuple[Node, Place]]) -> set[str]:
    """Every variable a piece of script may assign (for loops), through called functions."""
    return {name for name, _ in _bindings(node, place, functions)}


def script_assigns(node: Node, place: Place) -> frozenset[str]:
    """The names a script may assign, other than by a default of their own (`X=${X:-v}`), for
    `World.assigns`."""
    return frozenset(name for name, kind in _bindings(node, place, {}) if kind != "default" and name != "*")


def appended_names(node: Node, place: Place, functions: Mapping[str, tuple[Node, Place]]) -> dict[str, bool]:
    """The variables a piece of script only ever appends to (`X="${X} $arg"`, `X+=" $arg"`): after
    a loop of such appends, the known start of the value is still there. Each with whether every
    append starts with a blank (then what is appended is separate words)."""
    kinds: dict[str, set[str]] = {}
    for name, kind in _bindings(node, place, functions):
        kinds.setdefault(name, set()).add(kind)
    if "*" in kinds:
        return {}
    return {name: seen == {"append"} for name, seen in kinds.items() if seen <= {"append", "glued append"}}


def _bindings(node: Node, place: Place, functions: Mapping[str, tuple[Node, Place]]) -> Iterator[tuple[str, str]]:
    """(name, kind) for each binding in a piece of script: "append" (to a scalar, after a blank),
    "glued append" (`X="${X},$Y"`), "default" (`X=${X:-v}`) or "other"."""
    seen_functions: set[str] = set()
    pending = [node]
    while pending:
        current = pending.pop()
        for child in (current, *descendants(current)):
            if child.type == "variable_assignment":
                name = child.child_by_field_name("name")
                if name is not None:
                    if name.type == "variable_name":
                        yield place.parsed.source(name), _append_kind(child, place.parsed.source(name), place)
                    else:
                        yield place.parsed.source(name.child_by_field_name("name") or name), "other"
            elif child.type == "for_statement":
                variable = child.child_by_field_name("variable")
                if variable is not None:
                    yield place.parsed.source(variable), "other"
            elif child.type in ("unset_command", "declaration_command"):
                yield from ((place.parsed.source(c), "other") for c in child.named_children if c.type == "variable_name")
            elif child.type == "command":
                words = [place.parsed.source(c) for c in child.named_children if c.type in ("command_name", "word")]
                if words and words[0] in ("read", "mapfile", "readarray", "getopts", "printf", "let"):
                    yield from ((word, "other") for word in words[1:] if _IDENTIFIER.match(word))
                if words and words[0] in functions and words[0] not in seen_functions:
                    seen_functions.add(words[0])
                    pending.append(functions[words[0]][0])
                if words and words[0] in ("source", ".", "eval"):
                    yield "*", "other"
            elif child.type == "compound_statement" and child.children and child.children[0].type == "((":
                yield from ((place.parsed.source(n), "other") for n in descendants(child) if n.type == "variable_name")


def _append_kind(assignment: Node, name: str, place: Place) -> str:
    """`name+=scalar`, or `name=` a value that starts with `$name` / `${name}`: an append, "glued"
    unless a blank follows; anything else "other"."""
    value = assignment.child_by_field_name("value")
    if value is None or value.type == "array":
        return "other"
    if _own_default(value, name, place):
        return "default"
    text = place.parsed.text
    if any(child.type == "+=" for child in assignment.children):
        start = place.parsed.start(value) + (1 if value.type in ("string", "raw_string") else 0)
        return "append" if text[start : start + 1].isspace() else "glued append"
    first = value
    while first.type in ("string", "concatenation") and first.named_children:
        if place.parsed.start(first.named_children[0]) != place.parsed.start(first) + (1 if first.type == "string" else 0):
            return "other"  # text before the expansion: `X="a $X"` prepends
        first = first.named_children[0]
    if single_variable(first, place) != name:
        return "other"
    return "append" if text[place.parsed.end(first) : place.parsed.end(first) + 1].isspace() else "glued append"


def _own_default(value: Node, name: str, place: Place) -> bool:
    """`X=${X:-v}`, `X="${X-v}"`: the variable keeps its value, or takes the default."""
    if value.type == "string" and len(value.named_children) == 1:
        value = value.named_children[0]
    if value.type != "expansion" or not value.named_children:
        return False
    first = value.named_children[0]
    operators = [child.type for child in value.children if not child.is_named and child.type not in ("${", "}")]
    return first.type == "variable_name" and place.parsed.source(first) == name and operators[:1] in (["-"], [":-"])


def assigned_by(builtin: str, arguments: list[Field]) -> list[str]:
    """Variables `read`, `mapfile`, `getopts`, `let`, `printf -v`, `wait -p` assign."""
    texts = [argument.text or "" for argument in arguments]
    if builtin in ("printf", "wait"):
        option = "-v" if builtin == "printf" else "-p"
        return [texts[i + 1] for i, text in enumerate(texts[:-1]) if text == option]
    if builtin == "let":
        return [re.split(r"[^A-Za-z0-9_]", text)[0] for text in texts]
    return [text for text in texts if _IDENTIFIER.match(text)]

"""Helpers over tree-sitter-bash nodes: what a statement is made of, and how to show it."""

from __future__ import annotations

from typing import Iterable

from ...model import snippet
from .grammar import Node
from .place import Place
from .values import Container


def descendants(node: Node) -> Iterable[Node]:
    stack = list(reversed(node.children))
    while stack:
        current = stack.pop()
        yield current
        stack.extend(reversed(current.children))


def touches_error(node: Node) -> bool:
    if node.has_error:
        return True
    parent = node.parent
    while parent is not None:
        if parent.type == "ERROR":
            return True
        parent = parent.parent
    return False


def words_of(place: Place, node: Node) -> Container:
    start = place.range(place.parsed.start(node), place.parsed.start(node))[0]
    return Container(("words", start, place.depth), None, "words", place.layers)


def single_variable(node: Node, place: Place) -> str | None:
    """The variable a word consists of (`$X`, `${X}`, `"$X"`), or None."""
    current = node
    if current.type == "string" and len(current.named_children) == 1:
        current = current.named_children[0]
    if current.type == "simple_expansion" and current.named_children and current.named_children[0].type == "variable_name":
        return place.parsed.source(current.named_children[0])
    if current.type == "expansion" and len(current.named_children) == 1 and current.named_children[0].type == "variable_name":
        return place.parsed.source(current.named_children[0])
    return None


def statement_break(children: list[Node], place: Place) -> int:
    """tree-sitter-bash sometimes joins `A=1 B=2` and the next line's command into one command;
    bash ends the statement at the newline. Index of the first child after such a break."""
    for index in range(1, len(children)):
        previous = children[index - 1]
        if previous.type != "variable_assignment":
            return 0
        gap = place.parsed.text[place.parsed.end(previous) : place.parsed.start(children[index])]
        if "\n" in gap.replace("\\\n", ""):
            return index
    return 0


def if_branches(node: Node) -> list[tuple[list[Node] | None, list[Node]]]:
    """(condition statements, body statements) of each branch; the else branch has None."""
    branches: list[tuple[list[Node] | None, list[Node]]] = [_clause(node.children, ("if", "fi", "elif_clause", "else_clause"))]
    for clause in node.children:
        if clause.type == "elif_clause":
            branches.append(_clause(clause.children, ("elif",)))
        elif clause.type == "else_clause":
            branches.append((None, [child for child in clause.children if child.type != "else"]))
    return branches


def _clause(children: list[Node], skipped: tuple[str, ...]) -> tuple[list[Node], list[Node]]:
    condition: list[Node] = []
    body: list[Node] = []
    target = condition
    for child in children:
        if child.type == "then":
            target = body
        elif child.type not in skipped:
            target.append(child)
    return condition, body


def exits(body: list[Node], place: Place) -> bool:
    """A branch that ends the script (or function) on every path through it."""
    for node in body:
        if node.type == "command":
            name = node.child_by_field_name("name")
            if name is not None and place.parsed.source(name) in ("exit", "return"):
                return True
    return False


def code(text: str) -> str:
    """Script text shown in a condition: one line, at most 60 characters, in backticks."""
    return f"`{snippet(' '.join(text.split()).rstrip(';').strip())}`"

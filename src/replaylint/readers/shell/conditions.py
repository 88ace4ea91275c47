"""Tests whose outcome the script itself decides (`[ "$MODE" = replay ]` after `MODE=replay`)."""

from __future__ import annotations

import re

from .expand import Expander
from .grammar import Node
from .nodes import words_of
from .place import Place
from .splitting import matches
from .values import NO_DEFAULTS
from .world import ARGUMENTS, World

WITHOUT_ARGUMENTS = ", as the script runs as written, without arguments"  # said of the tests `without_arguments` decides
_OWN_ARGUMENT = re.compile(r'^"?\$\{?[1-9]\}?"?$')  # `"$1"`, `${2}`


def statements_outcome(nodes: list[Node], place: Place, worlds: list[World]) -> bool | None:
    """The outcome of an `if` condition, when it is one test whose words are all known."""
    statements = [n for n in nodes if n.is_named and n.type != "comment"]
    if len(statements) != 1 or len(worlds) != 1:
        return None
    return outcome(statements[0], place, worlds[0])


def outcome(node: Node, place: Place, world: World) -> bool | None:
    """The outcome of `[ A = B ]`, `[[ -z A ]]`, `true`, `false` when every word is known."""
    if node.type == "command":
        name = node.child_by_field_name("name")
        text = place.parsed.source(name) if name is not None else ""
        if len(node.named_children) == 1 and text in ("true", ":", "false"):
            return text != "false"
        if text not in ("[", "test"):
            return None
        words = [c for c in node.children_by_field_name("argument")]
        expander = Expander(place, world.scope(off=NO_DEFAULTS), words_of(place, node))
        texts = [f.text for w in words for f in expander.fields(w)]
        if texts and texts[-1] == "]":
            texts = texts[:-1]
        return _evaluate_test(texts)
    if node.type == "test_command":
        inner = [c for c in node.named_children]
        if len(inner) != 1:
            return None
        expression = inner[0]
        expander = Expander(place, world.scope(off=NO_DEFAULTS), words_of(place, node))
        if expression.type == "binary_expression" and len(expression.named_children) == 2:
            operator = next((c.type for c in expression.children if not c.is_named), "")
            left, right = expression.named_children
            left_text = _single_text(expander, left)
            if operator in ("==", "=", "!=") and right.type in ("extglob_pattern", "regex"):
                right_text: str | None = place.parsed.source(right)
                verdict = matches(right_text, left_text) if left_text is not None else None
                return None if verdict is None else (verdict if operator != "!=" else not verdict)
            return _evaluate_test([left_text, operator, _single_text(expander, right)])
        if expression.type == "unary_expression" and len(expression.named_children) == 2:
            operator_node, operand = expression.named_children
            return _evaluate_test([place.parsed.source(operator_node), _single_text(expander, operand)])
    return None


def _single_text(expander: Expander, node: Node) -> str | None:
    fields = expander.fields(node)
    if len(fields) != 1:
        return "" if not fields else None
    return fields[0].text if fields[0].known else None


def _evaluate_test(texts: list[str | None]) -> bool | None:
    if any(text is None for text in texts):
        return None
    if len(texts) == 3 and texts[1] in ("=", "==", "!="):
        same = texts[0] == texts[2]
        return same if texts[1] != "!=" else not same
    if len(texts) == 2 and texts[0] in ("-z", "-n"):
        empty = texts[1] == ""
        return empty if texts[0] == "-z" else not empty
    if len(texts) == 1:
        return texts[0] != ""
    return None


def dynamic(pattern: str) -> bool:
    return "$" in pattern or "`" in pattern


def without_arguments(nodes: list[Node], place: Place, worlds: list[World]) -> bool | None:
    """The outcome of `[ -z "$1" ]` (`-n`, `test`, `[[ ]]`) in a script run as written, without
    arguments (its own positional parameters the `"$@"` it is judged without): `$1` is then empty.
    None: another test, or a script read with words (a caller's, a function's)."""
    statements = [n for n in nodes if n.is_named and n.type != "comment"]
    if len(statements) != 1 or not worlds or any(world.positional is not ARGUMENTS for world in worlds):
        return None
    node = statements[0]
    if node.type == "command" and place.parsed.source(node.child_by_field_name("name") or node) in ("[", "test"):
        texts = [place.parsed.source(c) for c in node.children_by_field_name("argument")]
        texts = texts[:-1] if texts and texts[-1] == "]" else texts
    elif node.type == "test_command" and len(node.named_children) == 1 and node.named_children[0].type == "unary_expression":
        texts = [place.parsed.source(c) for c in node.named_children[0].named_children]
    else:
        return None
    if len(texts) != 2 or texts[0] not in ("-z", "-n") or not _OWN_ARGUMENT.match(texts[1]):
        return None
    return texts[0] == "-z"

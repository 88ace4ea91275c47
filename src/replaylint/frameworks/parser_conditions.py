"""Whether a program that reads its command line with vLLM's parser reaches the line that builds
its engine, as its words decide: kserve's `huggingfaceserver` builds the engine only under

    if (args.backend == Backend.vllm or args.backend == Backend.auto) and vllm_available():

with `--backend` an option of its own (`default="auto"`, `type=lambda t: Backend[t]`). A test on
the program's own options is decided by the words (the last one given, else the option's default);
`__name__ == "__main__"` holds; any other part (`vllm_available()`) is decided at run time and
becomes the launch's condition. A value the words do not settle (a word not known, a `type` not
read) leaves the test to run time too."""

from __future__ import annotations

import ast
from typing import Any

from ..records import record
from ..vllm.command_line import Token

_UNSET = object()  # no value known


@record(unsafe_hash=True)
class OwnOption:
    """One option of the program's own: its strings, its default (`_UNSET`: not a constant), and
    the `Enum` whose member its `type=lambda t: E[t]` makes of the word ("" for a plain text)."""

    strings: tuple[str, ...]
    default: Any
    enum: str | None  # None: a type not read


def own_options(calls: list[ast.Call]) -> dict[str, OwnOption]:
    """The program's `parser.add_argument(...)` options by their `dest`."""
    found: dict[str, OwnOption] = {}
    for call in calls:
        if not isinstance(call.func, ast.Attribute) or call.func.attr != "add_argument":
            continue
        strings = tuple(a.value for a in call.args if isinstance(a, ast.Constant) and isinstance(a.value, str) and a.value.startswith("--"))
        keywords = {keyword.arg: keyword.value for keyword in call.keywords}
        if not strings or "action" in keywords or "nargs" in keywords:
            continue
        dest = keywords.get("dest")
        name = dest.value if isinstance(dest, ast.Constant) else strings[0][2:].replace("-", "_")
        default = keywords.get("default")
        value = None if default is None else default.value if isinstance(default, ast.Constant) else _UNSET
        found[str(name)] = OwnOption(strings, value, _enum_of(keywords.get("type")))
    return found


def _enum_of(node: ast.expr | None) -> str | None:
    """An empty text for no type (or `str`), the Enum's name for `lambda t: E[t]`, None for another type."""
    if node is None or (isinstance(node, ast.Name) and node.id == "str"):
        return ""
    if isinstance(node, ast.Lambda) and len(node.args.args) == 1 and isinstance(node.body, ast.Subscript):
        body = node.body
        if isinstance(body.value, ast.Name) and isinstance(body.slice, ast.Name) and body.slice.id == node.args.args[0].arg:
            return body.value.id
    return None


def branch(tree: ast.AST, target: ast.AST, tokens: list[Token], options: dict[str, OwnOption]) -> bool | str:
    """False when the words make a test around `target` fail; else True, or the text of the parts
    decided at run time (the launch's condition)."""
    parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    pending: list[str] = []
    node = target
    while node in parents:
        parent = parents[node]
        if isinstance(parent, ast.If) and node is not parent.test:
            wanted = node in parent.body
            verdict, unknown = _test(parent.test, tokens, options)
            if verdict is not None and verdict != wanted:
                return False
            if verdict is None:
                text = " and ".join(ast.unparse(part) for part in unknown)
                pending.append(text if wanted else f"not ({text})")
        node = parent
    return " and ".join(reversed(pending)) or True


def _test(test: ast.expr, tokens: list[Token], options: dict[str, OwnOption]) -> tuple[bool | None, list[ast.expr]]:
    """(the test's value or None, the parts left to run time of a conjunction)."""
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And):
        verdicts = [(_value(part, tokens, options), part) for part in test.values]
        if any(verdict is False for verdict, _ in verdicts):
            return False, []
        unknown = [part for verdict, part in verdicts if verdict is None]
        return (None, unknown) if unknown else (True, [])
    verdict = _value(test, tokens, options)
    return verdict, [] if verdict is not None else [test]


def _value(node: ast.expr, tokens: list[Token], options: dict[str, OwnOption]) -> bool | None:
    if isinstance(node, ast.BoolOp):
        values = [_value(part, tokens, options) for part in node.values]
        settled = isinstance(node.op, ast.And) and False in values or isinstance(node.op, ast.Or) and True in values
        if settled:
            return isinstance(node.op, ast.Or)
        return None if None in values else isinstance(node.op, ast.And)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        inner = _value(node.operand, tokens, options)
        return None if inner is None else not inner
    if isinstance(node, ast.Compare) and len(node.ops) == 1:
        return _compare(node.left, node.ops[0], node.comparators[0], tokens, options)
    return None


def _compare(left: ast.expr, op: ast.cmpop, right: ast.expr, tokens: list[Token], options: dict[str, OwnOption]) -> bool | None:
    if isinstance(left, ast.Name) and left.id == "__name__":
        main = isinstance(right, ast.Constant) and right.value == "__main__"
        return isinstance(op, ast.Eq) if main and isinstance(op, (ast.Eq, ast.NotEq)) else None
    if not isinstance(left, ast.Attribute) or left.attr not in options:
        left, right = right, left
    if not isinstance(left, ast.Attribute) or left.attr not in options:
        return None
    option = options[left.attr]
    value = _word_value(option, tokens)
    if value is _UNSET or option.enum is None:
        return None
    others = right.elts if isinstance(right, (ast.Tuple, ast.List, ast.Set)) and isinstance(op, (ast.In, ast.NotIn)) else [right]
    matches = [_constant(other, option.enum) for other in others]
    if any(match is _UNSET for match in matches):
        return None
    if isinstance(op, (ast.Eq, ast.Is, ast.In)):
        return value in matches
    if isinstance(op, (ast.NotEq, ast.IsNot, ast.NotIn)):
        return value not in matches
    return None


def _constant(node: ast.expr, enum: str) -> Any:
    """What a test compares an option's value with: a text (plain options), a member's name (an
    Enum's: `Backend.vllm`), None; `_UNSET` for anything else."""
    if isinstance(node, ast.Constant) and (node.value is None or (isinstance(node.value, str) and not enum)):
        return node.value
    if enum and isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == enum:
        return node.attr
    return _UNSET


def _word_value(option: OwnOption, tokens: list[Token]) -> Any:
    """The option's text from the words (the last given wins), else its default; `_UNSET` when
    a word not known may give it."""
    value: Any = option.default
    index = 0
    while index < len(tokens):
        token = tokens[index]
        text = token.text if token.known else None
        if text is None and not _takes_it(tokens, index):
            value = _UNSET  # `"$@"`, `$ARGS`: may give the option
        elif text is None:
            pass
        elif text in option.strings and index + 1 < len(tokens):
            following = tokens[index + 1]
            value = following.text if following.known else _UNSET
            index += 1
        elif "=" in text and text.split("=", 1)[0] in option.strings:
            value = text.split("=", 1)[1]
        index += 1
    return value


def _takes_it(tokens: list[Token], index: int) -> bool:
    """Whether the word at `index` is the value of the option word before it (`--model $M`)."""
    before = tokens[index - 1] if index else None
    return before is not None and before.known and str(before.text).startswith("-") and "=" not in str(before.text)

"""Option loops a script run as written, without arguments, never enters: `while [[ $# -gt 0 ]]; do case $1
in --model) MODEL="$2"; shift 2;; ... esac; done`, `while (( "$#" ))`, `until [ -z "$1" ]`, `while getopts
"m:p:" opt`, `for arg in "$@"`, `for arg; do`. What the loop assigns keeps the value it had before, as a default
taken on the condition that the script runs without arguments (`Chunk.assumed`, like `${1:-m}`), so a launch
that reads it is built with it and says so, and the launch as it would be with arguments is open where it
reads it. Only the script's own arguments count (`world.ARGUMENTS`): a script another runs with words, or a
function called with others, reads the loop as any loop."""

from __future__ import annotations

import operator
import re
from dataclasses import replace

from .grammar import Node
from .nodes import descendants
from .place import Place
from .values import Array, Assumed, Chunk, Field, Partial, Scalar, Value
from .world import ARGUMENTS, World, relevant_env

WITHOUT_ARGUMENTS = Assumed("the script is run without arguments", 1)  # `expand.Expander._unset`'s for `${1:-v}`

_COUNT = r'(?:"\$\{?#\}?"|\$\{?#\}?)'  # `$#`, `"$#"`, `${#}`
_FIRST = r'(?:"\$\{?1(?::?-)?\}?"|\$\{?1(?::?-)?\}?)'  # `$1`, `"$1"`, `"${1:-}"`
_EMPTY = r'(?:""|\'\')'
_NUMBER = r'"?(\d+)"?'
# Inside `[ ]`/`test` (where `>` and `<` redirect), `[[ ]]` and `(( ))`, the brackets taken off:
_COUNTED = re.compile(rf"^{_COUNT}\s+(-gt|-ge|-ne|-eq|-lt|-le|=|!=)\s+{_NUMBER}$")  # `$# -gt 0`, `"$#" -ne 0`
_COUNTED_DOUBLE = re.compile(rf"^{_COUNT}\s+(==|>|<)\s+{_NUMBER}$")  # `[[ $# > 0 ]]`
_FIRST_TESTED = re.compile(rf"^(-n|-z)\s+{_FIRST}$")  # `-n "$1"`
_FIRST_COMPARED = re.compile(rf"^{_FIRST}\s+(==|=|!=)\s+{_EMPTY}$")  # `"$1" != ""`
_ARITHMETIC = re.compile(rf"^{_COUNT}\s*(?:(>|>=|!=|==|<|<=)\s*(\d+))?$")  # `(( $# > 0 ))`, `(( "$#" ))`
_GETOPTS = re.compile(r"^getopts\s+(?:\"[^\"$`]*\"|'[^']*'|[\w:]+)\s+\w+$")  # it reads the script's arguments only when given no others
_SPREADS = {'"$@"', "$@", '"${@}"', "${@}", "$*", "${*}"}  # (`"$*"` is one word, empty: the loop runs once)
_COMPARE = {
    **dict.fromkeys(("-gt", ">"), operator.gt),
    **dict.fromkeys(("-ge", ">="), operator.ge),
    **dict.fromkeys(("-lt", "<"), operator.lt),
    **dict.fromkeys(("-le", "<="), operator.le),
    **dict.fromkeys(("-eq", "==", "="), operator.eq),
    **dict.fromkeys(("-ne", "!="), operator.ne),
}
# Commands in a loop's body that change more than the variables it assigns (the environment, the
# positional parameters, anything): such a loop is read as any loop.
_WIDE = {"export", "declare", "typeset", "readonly", "source", ".", "eval", "set", "unset", "local"}


def skipped_without_arguments(node: Node, place: Place, world: World, names: set[str], functions: dict) -> bool:
    """Whether the loop `node`, in `world`, is one the script run as written never enters, and what it
    assigns (`names`) can be kept as defaults: plain variables, a body that changes nothing else."""
    if not _own_arguments(world) or "*" in names or not _never_entered(node, place):
        return False
    if any(relevant_env(name) or name in world.exported or name in world.env for name in names):
        return False
    return not _wide_body(node, place, functions)


def kept(world: World, names: set[str]) -> World:
    """The world after a loop never entered: each name it assigns holds its value from before, taken on
    the condition `WITHOUT_ARGUMENTS`; a value with no text to carry it (unset, empty) is not known."""
    copied = world.copy()
    for name in names:
        marked = _marked(copied.variables.get(name))
        if marked is None:
            copied.variables.pop(name, None)
        else:
            copied.variables[name] = marked
    return copied


def _own_arguments(world: World) -> bool:
    """The positional parameters are the script's own arguments (`"$@"` handed to a function too), none as written."""
    positional = world.positional
    return positional is ARGUMENTS or (bool(positional) and all(field.spread and field.forwarded > 0 for field in positional or ()))


def _never_entered(node: Node, place: Place) -> bool:
    if node.type == "for_statement":  # `for arg in "$@"`, `for arg; do`
        values = [place.parsed.source(value) for value in node.children_by_field_name("value")]
        listed = any(child.type == "in" for child in node.children)
        return all(value in _SPREADS for value in values) and (bool(values) or not listed)
    if node.type != "while_statement" or not node.children:
        return False
    until = node.children[0].type == "until"
    condition = [c for c in node.children[1:] if c.type not in ("do_group", ";", "&", "\n", "comment")]
    if len(condition) != 1:
        return False
    held = _holds_without_arguments(" ".join(place.parsed.source(condition[0]).split()))
    return held is not None and held == until


def _holds_without_arguments(text: str) -> bool | None:
    """Whether a loop's test holds when the script has no arguments (`$#` is 0, `$1` empty); None: not known."""
    if text.startswith("[[ ") and text.endswith(" ]]"):
        inner = text[3:-3].strip()
        if "&&" in inner and "||" not in inner:  # `[[ $# -gt 0 && $1 == -* ]]`: one part failing fails it
            parts = [_tested(part.strip(), True) for part in inner.split("&&")]
            return False if False in parts else None
        return _tested(inner, True)
    if text.startswith("[ ") and text.endswith(" ]"):
        return _tested(text[2:-2].strip(), False)
    if text.startswith("test "):
        return _tested(text[5:].strip(), False)
    if text.startswith("((") and text.endswith("))"):
        found = _ARITHMETIC.match(text[2:-2].strip())
        if found is None:
            return None
        return _COMPARE[found.group(1)](0, int(found.group(2))) if found.group(1) else False
    if _GETOPTS.match(text):
        return False  # no arguments to read: it fails at once
    return None


def _tested(inner: str, double: bool) -> bool | None:
    """The outcome of one test (`$# -gt 0`, `-n "$1"`) without arguments; `double`: inside `[[ ]]`."""
    found = _COUNTED.match(inner) or (_COUNTED_DOUBLE.match(inner) if double else None)
    if found is not None:
        compared, number = found.groups()
        numbers = compared.startswith("-")  # `=`, `!=`, `==`, `>`, `<` compare text
        return _COMPARE[compared](0, int(number)) if numbers else _COMPARE[compared]("0", number)
    found = _FIRST_TESTED.match(inner)
    if found is not None:
        return found.group(1) == "-z"
    found = _FIRST_COMPARED.match(inner)
    if found is not None:
        return found.group(1) != "!="
    return None


def _wide_body(node: Node, place: Place, functions: dict) -> bool:
    for inner in descendants(node):
        if inner.type == "command":
            name = inner.child_by_field_name("name")
            text = place.parsed.source(name) if name is not None else ""
            if text in _WIDE or text in functions:
                return True
        elif inner.type in ("declaration_command", "unset_command"):
            return True
    return False


def _marked(value: Value | None) -> Value | None:
    if isinstance(value, Scalar) and value.chunks:
        return Scalar(tuple(_chunk(chunk) for chunk in value.chunks))
    if isinstance(value, Partial) and any(isinstance(part, Chunk) for part in value.parts):
        return Partial(tuple(_chunk(part) if isinstance(part, Chunk) else part for part in value.parts))
    if isinstance(value, Array) and value.elements and all(_carries(element) for element in value.elements):
        return Array(
            tuple(
                replace(element, chunks=tuple(_chunk(c) if isinstance(c, Chunk) else c for c in element.chunks))
                for element in value.elements
            )
        )
    return None


def _carries(element: Field) -> bool:
    return element.known and any(isinstance(chunk, Chunk) and chunk.text for chunk in element.chunks)


def _chunk(chunk: Chunk) -> Chunk:
    return chunk if chunk.assumed is not None else replace(chunk, assumed=WITHOUT_ARGUMENTS)

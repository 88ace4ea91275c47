"""argparse's plain positionals as a command line's words fill them: llm-jp-eval-inference's
`parser.add_argument("command", choices=["inference"])` before `--config`, run as `python
inference.py inference --config ./config_sample.yaml`. Each word that is not a flag's fills the
next positional, in the order the parser adds them, wherever it stands among the flags.

Read only where every positional is plain (one name, no `nargs`, `action`, `dest` or `default`,
a `type=` of `int`, `float` or `str`, `choices=` spelt out): a parser with another, or with
subcommands, keeps its words unread. A word its positional's `choices` refuse, or one no
positional is left for, is argparse's error: the run is not read either (None)."""

from __future__ import annotations

import ast

from ....model import UNKNOWN
from .frames import Evaluates, Frame
from .refs import Qualified

POSITIONALS = "\0positionals"  # in a parser's flags: its plain positionals in order; None: one not read
_PLAIN_KEYWORDS = frozenset(("choices", "help", "type", "metavar"))

Slot = tuple[str, frozenset | None, str | None]  # dest, the values `choices` allows (None: any), the `type=`


def add_positional(reader: Evaluates, node: ast.Call, frame: Frame, flags: dict) -> None:
    """Record the positional an `add_argument` without a flag adds (or that one is not read)."""
    slot = _slot(reader, node, frame)
    held = flags.get(POSITIONALS, ())
    flags[POSITIONALS] = None if slot is None or held is None else (*held, slot)


def words_unread(flags: dict) -> None:
    """The parser's words go elsewhere too (subcommands): no positional is read."""
    flags[POSITIONALS] = None


def positional_value(flags: dict, taken: int, text: str) -> tuple[Slot, object] | None:
    """The slot the `taken`+1-th positional word fills and its value; None where argparse would
    refuse the word (no slot left, a choice not allowed) or the slots are not read."""
    slots = flags.get(POSITIONALS, ())
    if slots is None or taken >= len(slots):
        return None
    slot = slots[taken]
    value = option_value(text, slot[2])
    if value is UNKNOWN or (slot[1] is not None and value not in slot[1]):
        return None
    return slot, value


def all_filled(flags: dict, taken: int) -> bool:
    """Whether the words filled every positional (argparse requires each)."""
    slots = flags.get(POSITIONALS, ())
    return slots is not None and taken == len(slots)


def _slot(reader: Evaluates, node: ast.Call, frame: Frame) -> Slot | None:
    if len(node.args) != 1 or not isinstance(node.args[0], ast.Constant) or not isinstance(node.args[0].value, str):
        return None
    dest = node.args[0].value
    keywords = {keyword.arg: keyword.value for keyword in node.keywords}
    if not dest.isidentifier() or not set(keywords) <= _PLAIN_KEYWORDS:
        return None
    convert = None
    if "type" in keywords:
        ref = reader.evaluate(keywords["type"], frame).ref
        convert = ref.name if isinstance(ref, Qualified) and ref.name in ("int", "float", "str") else "?"
    if convert == "?":
        return None
    choices = None
    if "choices" in keywords:
        listed = keywords["choices"]
        items = listed.elts if isinstance(listed, (ast.List, ast.Tuple, ast.Set)) else None
        if items is None or not all(isinstance(item, ast.Constant) for item in items):
            return None
        choices = frozenset(item.value for item in items)  # type: ignore[attr-defined]
    return dest, choices, convert


def option_value(text: str, convert: str | None) -> object:
    """An option's or positional's word as argparse's `type=` makes it (UNKNOWN: a type not read, or a word it refuses)."""
    try:
        return {None: str, "str": str, "int": int, "float": float}[convert](text)
    except (KeyError, ValueError):
        return UNKNOWN

"""The words of a vLLM command line and what they hold: `Token`s (text, span, spelling, an
already-parsed value), the result of a parse (`ArgvResult`), and the conversions argparse and
vLLM apply to values: option names normalised, JSON and dotted values, `nargs` lists, dotted keys
merged into a dict, `-O` levels.
"""

from __future__ import annotations

import json
import re
from dataclasses import field
from typing import Any, Callable, Sequence

from ..model import UNKNOWN, ArgIssue, Setting, Span
from ..records import record
from ..regexes import on_use
from .engine_fields import FIELDS
from .options import OptionTable

_NONE_WORDS = ("", "None", "null")
BOOL_WORDS = {"true", "false", "yes", "no", "1", "0", "on", "off"}
NEGATIVE_NUMBER = on_use(r"^-\d+$|^-\d*\.\d+$")
MODEL_OPTION = re.compile(r"^--model(=.+|$)")


@record(unsafe_hash=True)
class Token:
    text: str | None
    span: Span
    raw: str
    spread: bool = False
    value: Any = None  # an already-parsed value (a YAML map from a --config file; for an unknown word, the JSON object written around its expansions)
    keys: dict[str, Setting] = field(default_factory=dict)
    forwarded: bool = False  # the script's own arguments (`"$@"`, `"$1"`): not known, but judged as absent
    written: Span | None = None  # the word is one variable's whole value (`"$SPEC"`, `$(SPEC)`), written there
    inline_written: Span | None = None  # a dotted key's value after `=` is one variable's whole value (`-sc.key=$(VAR)`), written there

    @property
    def known(self) -> bool:
        return self.text is not None and not self.spread


@record
class ArgvResult:
    settings: dict[str, Setting] = field(default_factory=dict)
    issues: list[ArgIssue] = field(default_factory=list)
    open_reasons: list[str] = field(default_factory=list)
    forwarded: list[str] = field(default_factory=list)  # the script's arguments among the words
    # Which input tokens make up each setting (for fixes); config-file tokens are not listed.
    token_indices: dict[str, tuple[int, ...]] = field(default_factory=dict)
    config_file: str | None = None

    @property
    def open_ended(self) -> bool:
        return bool(self.open_reasons)


ConfigLoader = Callable[[str, Token], "list[Token] | None"]


@record
class Item:
    token: Token
    index: int | None  # position in the caller's token list; None for config-file tokens
    text: str | None  # after underscore normalisation


def normalise(text: str) -> str:
    """`--logprobs_mode=x` -> `--logprobs-mode=x`: underscores in the name part of `--` options."""
    if not text.startswith("--"):
        return text
    name, eq, value = text.partition("=")
    head, dot, rest = name[2:].partition(".")
    return "--" + head.replace("_", "-") + dot + rest + eq + value


def looks_like_option(text: str | None, table: OptionTable) -> bool:
    if text is None or not text.startswith("-") or text == "-":
        return False
    if NEGATIVE_NUMBER.match(text):
        return False
    return " " not in text or text.split("=", 1)[0] in table.options


def cover_of(tokens: Sequence[Token]) -> Span:
    span = tokens[0].span
    for token in tokens[1:]:
        if token.span.path == span.path:
            span = span.cover(token.span)
    return span


def spelling_of(tokens: Sequence[Token]) -> str:
    return " ".join(token.raw for token in tokens)


def _json_value(text: str) -> Any:
    if text in _NONE_WORDS:
        return None
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        return UNKNOWN


def dotted_value(text: str) -> Any:
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        return text


def convert(dest: str, values: list[Token], nargs: int | str) -> Any:
    """A value as the engine argument receives it (JSON parsed, ints read, list elements)."""
    kind = FIELDS[dest].kind if dest in FIELDS else None
    if kind == "json" and len(values) == 1 and values[0].text is None and isinstance(values[0].value, dict):
        return values[0].value  # JSON written around unknown expansions: its known keys
    if any(not token.known for token in values):
        return UNKNOWN
    if nargs in ("+", "*"):
        return [None if token.text in ("", "None") else token.text for token in values]
    if not values:
        return None
    token = values[0]
    if token.value is not None:
        return token.value
    text = token.text
    assert text is not None
    if kind == "json":
        return _json_value(text)
    if kind == "int":
        try:
            return int(text)
        except ValueError:
            return UNKNOWN
    return text


def optimization_level(items: list[Item]) -> list[Item]:
    """`-O3`, `-O=3`, `-Odecode` and `-O 3` (0-3 only) become `--optimization-level X`.

    FlexibleArgumentParser does this to every word, option or not, before argparse runs.
    """
    rewritten: list[Item] = []
    for position, item in enumerate(items):
        text = item.text
        if text is not None and text.startswith("-O") and text != "-O":
            level = text[3:] if text[2] == "=" else text[2:]
            rewritten += [Item(item.token, item.index, "--optimization-level"), Item(item.token, None, level)]
        elif text == "-O" and position + 1 < len(items) and items[position + 1].text in ("0", "1", "2", "3"):
            rewritten.append(Item(item.token, item.index, "--optimization-level"))
        else:
            rewritten.append(item)
    return rewritten


def merge(target: dict, path: list[str], value: Any, append: bool) -> None:
    for key in path[:-1]:
        nested = target.get(key)
        if not isinstance(nested, dict):
            nested = target[key] = {}
        target = nested
    last = path[-1]
    if append and isinstance(target.get(last), list) and isinstance(value, list):
        target[last] = target[last] + value
    elif isinstance(value, dict) and isinstance(target.get(last), dict):
        for key, item in value.items():
            merge(target[last], [key], item, False)
    else:
        target[last] = value

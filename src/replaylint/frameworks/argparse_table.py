"""argparse's reading of a command line against a parser's option table (option string -> the
number of words it takes: 0, 1, N, or argparse's `?`, `*`, `+`), as dumped from a framework's own
parser (OpenRLHF's `train_ppo_ray`, open-instruct's `grpo_fast`): which option takes which words,
which words it does not take (no positional arguments), and where it stops for another reason.

Python's argparse (3.11): an option word is one starting with `-` (not `-` alone, not a negative
number, no space unless it names an option: `--opt={"a": 1}`); `--opt=value`; a unique prefix of an option (`allow_abbrev`, both parsers'
default) names it, two or more is an error; an option takes as many of the following non-option
words as its `nargs` asks, too few is an error; the last occurrence wins.
"""

from __future__ import annotations

import re
from dataclasses import field
from typing import Any, Mapping

from ..records import record
from ..vllm.command_line import Token

_NEGATIVE_NUMBER = re.compile(r"^-\d+$|^-\d*\.\d+$")  # a value, as the parser has no option that looks like one


@record
class ParsedWords:
    """What the release's argparse parser makes of the words: each option's value words (the last
    occurrence), the words it does not take, and whether it stops for another reason."""

    values: dict[str, tuple[Token, list[Token]]] = field(default_factory=dict)
    refused: list[Token] = field(default_factory=list)
    other_error: bool = False
    unread: list[Token] = field(default_factory=list)


def _resolve(text: str, options: Mapping[str, Any]) -> tuple[str | None, str | None, bool]:
    """(option, its `=value`, ambiguous) for an option word: exact, or argparse's unique prefix."""
    name, eq, inline = text.partition("=")
    explicit = inline if eq else None
    if text in options:
        return text, None, False
    if eq and name in options:
        return name, explicit, False
    if not text.startswith("--"):
        return None, explicit, False
    matches = [option for option in options if option.startswith(name)]
    if len(matches) == 1:
        return matches[0], explicit, False
    return None, explicit, len(matches) > 1


def is_option(token: Token, options: Mapping[str, Any]) -> bool:
    """argparse's 'O' (`_parse_optional`): a word starting with `-` (not `-` alone) that names an
    option (`--opt={"a": 1}`, a prefix), else one that is no negative number and has no space."""
    text = token.text or ""
    if not text.startswith("-") or text == "-":
        return False
    option, _, ambiguous = _resolve(text, options)
    return option is not None or ambiguous or (" " not in text and _NEGATIVE_NUMBER.match(text) is None)


def parse_words(tokens: list[Token], options: Mapping[str, Any]) -> ParsedWords:
    parsed = ParsedWords()
    words = [token for token in tokens if not token.forwarded]  # judged as written, run without arguments
    parsed.unread = [token for index, token in enumerate(words) if not token.known and not _a_value(words, index, options)]
    if parsed.unread:
        return parsed
    if any(token.text == "--" for token in words):
        parsed.other_error = True  # what follows is positional: not followed here
        return parsed
    position = 0
    while position < len(words):
        token = words[position]
        text = str(token.text)
        if not token.known or not is_option(token, options):
            parsed.refused.append(token)  # no positional arguments
            position += 1
            continue
        option, explicit, ambiguous = _resolve(text, options)
        if ambiguous:
            parsed.other_error = True
            return parsed
        if option is None:
            parsed.refused.append(token)
            position += 1
            continue
        following = 0
        while position + 1 + following < len(words) and not is_option(words[position + 1 + following], options):
            following += 1
        taken = _taken(options[option], following, explicit is not None)
        if taken is None:
            parsed.other_error = True
            return parsed
        values = [Token(explicit, token.span, token.raw)] if explicit is not None else words[position + 1 : position + 1 + taken]
        parsed.values[option] = (token, values)
        position += 1 + taken
    return parsed


def _a_value(words: list[Token], index: int, options: Mapping[str, Any]) -> bool:
    """A word we cannot read right after an option that takes one value (`--train.agent_func_path
    "$AGENT_FUNC"`, `... $(python -c ...)`): argparse takes the next word there whatever it holds
    unless it starts with `-`, so it is read as that one value (a path, a name)."""
    if index == 0 or not words[index - 1].known:
        return False
    option, explicit, _ = _resolve(str(words[index - 1].text), options)
    return option is not None and explicit is None and options[option] == 1


def _taken(nargs: Any, following: int, explicit: bool) -> int | None:
    """How many of the `following` value words an option takes; None: argparse's error."""
    if explicit:
        return None if nargs == 0 or (isinstance(nargs, int) and nargs > 1) else 0
    if nargs == 0 or nargs == "?" and following == 0:
        return 0
    if nargs in ("?", 1):
        return 1 if following else None
    if nargs in ("*", "+"):
        return following if following or nargs == "*" else None
    return nargs if following >= nargs else None

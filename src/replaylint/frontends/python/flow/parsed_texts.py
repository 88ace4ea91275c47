"""Texts the program parses into values: `json.loads(TEXT)` and `ast.literal_eval(TEXT)` of a
text the flow knows (`'{"return_sampling_mask": true}'`, LLaMA-Factory's `vllm_config` string),
and texts it writes from them: `json.dumps(value)`, `shlex.quote(text)` (one shell word).
Parsing a literal evaluates nothing: `ast.literal_eval` reads only literals and refuses names,
calls and attributes."""

from __future__ import annotations

import ast
import json
import shlex
from dataclasses import replace
from typing import Any, Callable

from ....model import UNKNOWN, Setting
from ....records import record
from .dicts import as_val
from .facts import NOTHING, Entry, Kwargs, Val

Parse = Callable[[str], Any]


@record(unsafe_hash=True)
class DumpedMapping:
    """`json.dumps(kwargs)` of a mapping whose keys the reader knows and some value not: the text
    is not known, and `json.loads` of it gives the mapping back."""

    mapping: Val


def _json_key(name: object, item: object) -> str:
    return f"{json.dumps(name)}: {json.dumps(item)}"


def _python_key(name: object, item: object) -> str:
    return f"{name!r}: {item!r}"


_PARSERS: dict[str, tuple[Parse, Callable[[object, object], str]]] = {
    "json.loads": (json.loads, _json_key),
    "ast.literal_eval": (ast.literal_eval, _python_key),
}


def text_parser(name: str) -> str | None:
    """The parser a library call names (`json.loads`, `json5.loads`, `ast.literal_eval`)."""
    if name.startswith("json") and name.endswith(".loads"):
        return "json.loads"
    return name if name in _PARSERS else None


def json_object(read: Val) -> Val:
    return parsed_text(read, "json.loads")


def parsed_text(read: Val, parser: str) -> Val:
    """The value a known text parses to; a mapping's keys are each decided where the text is
    written (no fix writes into the text), or, for the text `json.dumps` made of a dict, where
    the dict writes them."""
    if isinstance(read.ref, DumpedMapping) and parser == "json.loads":
        return read.ref.mapping.via(*read.hops)
    where = read.span or read.origin  # the text itself, where the reader has it
    if not isinstance(read.value, str) or where is None:
        return NOTHING
    parse, spelt = _PARSERS[parser]
    try:
        value = parse(read.value)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return NOTHING
    if not isinstance(value, dict):
        return replace(read, value=value)
    # A default the text rests on (`--vllm_config`'s '{}') holds even where it sets no key.
    found = Kwargs(assumed=[condition for condition, _ in read.assumptions])
    for name, item in value.items():
        written = read.keys.get(name)  # `json.loads(json.dumps(kwargs))`: the key where the dict writes it
        if written is not None and written.value == item and type(written.value) is type(item):
            setting = replace(written, via=(*read.hops, *written.via))
        else:
            setting = Setting(name, item, where, spelt(name, item), via=read.hops)
        found.entries[name] = Entry(setting, None, assumptions=read.assumptions)
    return replace(as_val(found, read.span), hops=read.hops, assumptions=read.assumptions)


def json_text(read: Val) -> Val:
    """`json.dumps(value)` of a value the reader knows that JSON can write; the text rests on the
    defaults its keys rest on (`os.environ.get("SPEC_VERIFY", "synthetic")`), each at its place."""
    if not _writable(read.value):
        return Val(ref=DumpedMapping(read), span=read.span) if read.kwargs is not None and _keys_texts(read.kwargs) else NOTHING
    keys = read.keys if isinstance(read.value, dict) else {}  # each key reported where the dict writes it
    entries = read.kwargs.entries.values() if read.kwargs is not None else ()
    resting = [assumption for entry in entries for assumption in entry.assumptions]
    return Val(json.dumps(read.value), keys, assumptions=tuple(dict.fromkeys((*read.assumptions, *resting))))


def _keys_texts(found: Kwargs) -> bool:
    return all(isinstance(name, str) for name in found.entries)


def shell_quoted(read: Val) -> Val:
    """`shlex.quote(text)`: the text as one shell word, its quotes pieces of their own so that a shell splitting
    it keeps the text's keys (`shlex.quote(json.dumps(spec))`); a text not known is still one word."""
    if read.known and not isinstance(read.value, str):
        return NOTHING
    if read.known and shlex.quote(read.value) == read.value:
        return read
    if read.known and "'" in read.value:
        return replace(read, value=shlex.quote(read.value), parts=())
    quote = Val("'", span=read.span)
    return Val(shlex.quote(read.value) if read.known else UNKNOWN, span=read.span, parts=(quote, read, quote), assumptions=read.assumptions)


def text_writer(name: str) -> Callable[[Val], Val] | None:
    """What a library call that writes a text of its one argument makes of it (`json.dumps`, `shlex.quote`)."""
    if name.startswith("json") and name.endswith(".dumps"):
        return json_text
    return shell_quoted if name in ("shlex.quote", "pipes.quote") else None


def _writable(value: Any) -> bool:
    if isinstance(value, dict):
        return all(isinstance(k, str) and _writable(v) for k, v in value.items())
    if isinstance(value, list):
        return all(_writable(v) for v in value)
    return value is None or isinstance(value, (str, int, float, bool))

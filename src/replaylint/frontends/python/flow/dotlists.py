"""OmegaConf's dotted overrides: `OmegaConf.from_dotlist(["generator.sampling_params.top_k=-1"])`
makes a config whose nested keys are those the words name, each value read as YAML (OmegaConf's
`merge_with_dotlist`), written where the word is, so a finding points at it; merged over a loaded
config (`OmegaConf.merge(OmegaConf.load(path), overrides)`) each replaces the key it names.

What stays open: a list not spelt out (`sys.argv[1:]`), a word that is no text known here, a
dotted key with an empty part, a key that goes through a value that is no mapping."""

from __future__ import annotations

import ast
from dataclasses import replace

from ....model import UNKNOWN, Setting
from .dicts import as_val
from .facts import NOTHING, Entry, Kwargs, Val
from .frames import Evaluates, Frame


def from_dotlist(reader: Evaluates, node: ast.Call, frame: Frame) -> Val:
    """The config `OmegaConf.from_dotlist(words)` makes of words the reader knows one by one."""
    if len(node.args) != 1 or node.keywords:
        return NOTHING
    words = reader.evaluate(node.args[0], frame).ref
    if not isinstance(words, tuple):
        return NOTHING  # spread as an unknown config: it may set any key
    found = Kwargs(sources={frame.module.span(node)})
    for word in words:
        text = word.value
        key, equals, value = text.partition("=") if isinstance(text, str) else ("", "", "")
        path = key.split(".")
        spelt = _written(frame, word)
        if word.span is None or not all(path) or not _put(found, path, Entry(_setting(path[-1], word, spelt, value, equals))):
            found.reasons.append(f"{str(text)[:40]} (a dotted override not read)")
    return as_val(found, frame.module.span(node))


def _written(frame: Frame, word: Val) -> str:
    """The word as the module writes it, else as Python would."""
    span, text = word.span, frame.module.source.text
    return text[span.start : span.end] if span is not None and span.path == frame.module.path else repr(word.value)


def _setting(name: str, word: Val, spelt: str, value: str, equals: str) -> Setting:
    import yaml  # OmegaConf reads the value as YAML; a word without `=` sets None

    try:
        known = yaml.safe_load(value) if equals else None
    except yaml.YAMLError:
        known = UNKNOWN
    if "${" in value or value.strip("'\" ") == "???":
        known = UNKNOWN  # interpolated, or left to the command line, when it runs
    # no value span: a fix would have to write the word's text, not a literal of the value
    return Setting(name, known, word.span, spelt, None, via=word.hops)


def _put(found: Kwargs, path: list[str], entry: Entry) -> bool:
    """`found` with the dotted key written, the mappings on its way made when absent; False when
    one of them holds a value that is no mapping."""
    head, rest = path[0], path[1:]
    if not rest:
        found.entries.pop(head, None)
        found.entries[head] = entry
        return True
    inner = found.entries.get(head)
    if inner is not None and not isinstance(inner.ref, Kwargs):
        return False
    nested = inner.ref.copy() if inner is not None else Kwargs()
    if not _put(nested, rest, entry):
        return False
    keys = {name: item.setting for name, item in nested.entries.items()}
    setting = entry.setting if inner is None else inner.setting
    found.entries[head] = Entry(replace(setting, name=head, value=nested.value(), keys=keys, value_span=None), ref=nested)
    return True

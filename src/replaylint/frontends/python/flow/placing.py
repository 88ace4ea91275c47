"""Fixes of flowed launches, written where the deciding text is, in whichever module of the tree
holds it: a value replaced in place (a dict entry, a keyword, an argparse `default=`), a key
added next to the one it should follow, a key removed from its dict or call."""

from __future__ import annotations

import json
import re
from dataclasses import field
from typing import Any, Callable

from ....edits import insert_after, remove
from ....model import Edit, Fix, Launch, RemoveEnv, RemoveSetting, RenameSetting, SetEnv, SetSetting, Span
from ....records import record
from ....source import SourceFile
from .facts import Place


@record
class FlowHandle:
    """Where a flowed launch's settings are written (`places`), where a new key goes (`home`),
    the texts of the modules they are in, and the environment statements before the call."""

    home: Place | None
    places: dict[str, Place]
    texts: dict[str, str] = field(default_factory=dict)
    env_statements: dict[str, Span] = field(default_factory=dict)
    callers: bool = False  # the environment was read through the caller's statements too
    made: Span | None = None  # the construction of the object whose `__init__` built the engine (one actor of several)
    env_not_run: tuple[Span, ...] = ()  # environment writes under a branch decided against where the engine starts
    writes_read: str | None = None  # the name of the constructed object whose later attribute writes were read


def literal(value: Any, quote: str) -> str:
    if isinstance(value, str):
        body = value.replace("\\", "\\\\").replace(quote, "\\" + quote)
        return f"{quote}{body}{quote}"
    return repr(value)


def element(place: Any, name: str, value: Any) -> str:
    """`name: value` in a dict literal, `name=value` in a call (`place`: its kind and quote)."""
    if place.kind == "dict":
        return f"{literal(name, place.quote)}: {literal(value, place.quote)}"
    return f"{name}={literal(value, place.quote)}"


def remove_statement(source: SourceFile, span: Span) -> Edit:
    """Delete the statement at `span`: its whole line when it is alone there, else `pass`."""
    text = source.text
    line_start = text.rfind("\n", 0, span.start) + 1
    line_end = text.find("\n", span.end)
    line_end = len(text) if line_end == -1 else line_end + 1
    if text[line_start : span.start].strip() == "" and text[span.end : line_end].strip() == "":
        return Edit(source.index.span(line_start, line_end), "")
    return Edit(span, "pass")


def render(launch: Launch, fix: Fix, handle: FlowHandle, source: SourceFile) -> list[Edit] | None:
    edits: list[Edit] = []
    removals: dict[int, tuple[Place, set[int]]] = {}
    for intent in fix.intents:
        if isinstance(intent, SetSetting):
            edit = _set(launch, handle, intent)
            if edit is None:
                return None
            edits.append(edit)
        elif isinstance(intent, RemoveSetting):
            place = handle.places.get(intent.name)
            if place is None:
                return None
            if place.kind == "statement":
                start, end = place.sequence.elements[0]
                edits.append(remove_statement(place.module.source, place.module.source.index.span(start, end)))
                continue
            removals.setdefault(id(place.sequence), (place, set()))[1].add(place.position)
        elif isinstance(intent, RenameSetting):
            place = handle.places.get(intent.name)
            setting = launch.get(intent.name)
            if place is None or setting is None:
                return None
            quote = place.quote if place.kind == "dict" else ""
            start = setting.span.start
            name_span = place.module.source.index.span(start, start + len(intent.name) + 2 * len(quote))
            edits.append(Edit(name_span, f"{quote}{intent.new_name}{quote}"))
        elif isinstance(intent, (RemoveEnv, SetEnv)):
            edit = env_edit(intent, launch, handle.env_statements, source, handle.texts.get)
            if edit is None:
                return None
            edits.append(edit)
    for place, positions in removals.values():
        edits.extend(remove(place.module.source.index, place.sequence, positions))
    return edits


def _set(launch: Launch, handle: FlowHandle, intent: SetSetting) -> Edit | None:
    name, _, key = intent.name.partition(".")
    setting = launch.get(name)
    if key:
        sub = setting.keys.get(key) if setting is not None else None
        if sub is None or sub.value_span is None:
            return None
        return Edit(sub.value_span, _scalar(intent.value, handle, sub.value_span))
    if setting is not None:
        if setting.value_span is None:
            return None
        return Edit(setting.value_span, _scalar(intent.value, handle, setting.value_span))
    place = handle.places.get(intent.after) or (handle.home.at(len(handle.home.sequence.elements) - 1) if handle.home else None)
    if place is None:
        return None
    spelt = _spelt_in(place, name)
    if spelt is not None:  # the literal writes the key already (its entry dropped on the way, or shadowed): that entry decides
        return Edit(spelt, literal(intent.value, place.quote))
    if place.kind == "statement":
        if not place.target:
            return None
        index = place.module.source.index
        start, end = place.sequence.elements[0]
        line = index.line_text(index.position(start)[0])
        indent = line[: len(line) - len(line.lstrip())]
        written = f"{place.target}[{literal(name, place.quote)}] = {literal(intent.value, place.quote)}"
        text = index.text
        line_end = text.find("\n", end)
        line_end = len(text) if line_end == -1 else line_end - (text[line_end - 1 : line_end] == "\r")
        newline = "\r\n" if text[line_end : line_end + 2] == "\r\n" else "\n"
        return Edit(index.span(line_end, line_end), f"{newline}{indent}{written}")  # after the line's comment
    return insert_after(place.module.source.index, place.sequence, place.position, element(place, name, intent.value))


def _spelt_in(place: Place, name: str) -> Span | None:
    """The value of an entry of `place`'s dict literal (or keyword of its call) that writes `name`."""
    if place.kind not in ("dict", "call"):
        return None
    text = place.module.source.text
    head = rf"\s*(['\"]){re.escape(name)}\1\s*:\s*" if place.kind == "dict" else rf"\s*{re.escape(name)}\s*=(?!=)\s*"
    for start, end in place.sequence.elements:
        found = re.match(head, text[start:end])
        if found is not None:
            return place.module.source.index.span(start + found.end(), end)
    return None


def env_edit(
    intent: RemoveEnv | SetEnv, launch: Launch, statements: dict[str, Span], source: SourceFile, text_of: Callable[[str], str | None]
) -> Edit | None:
    """The edit of an `os.environ` write before the engine: the statement removed, or its value
    set in the quote it was written with (`text_of`: a module's text by path)."""
    if isinstance(intent, RemoveEnv):
        span = statements.get(intent.name)
        return None if span is None else remove_statement(source, span)
    env = launch.env.get(intent.name)
    if env is None or env.value_span is None:
        return None
    return Edit(env.value_span, literal(intent.value, _quote_in(text_of(env.value_span.path) or "", env.value_span)))


_CONFIG_FILES = (".yaml", ".yml", ".json")  # files the flow reads values from (`yaml_configs`)


def _scalar(value: Any, handle: FlowHandle, span: Span) -> str:
    """`value` as the file at `span` spells it: `false` and `null` in a YAML or JSON config the
    value was read from, `false` in a TOML one (`tomllib.load`), a Python literal in a module."""
    path = span.path.lower()
    if (isinstance(value, bool) or value is None) and path.endswith(_CONFIG_FILES):
        return json.dumps(value)
    if isinstance(value, bool) and path.endswith(".toml"):
        return json.dumps(value)
    return literal(value, _quote(handle, span))


def _quote(handle: FlowHandle, span: Span) -> str:
    return _quote_in(handle.texts.get(span.path, ""), span)


def _quote_in(text: str, span: Span) -> str:
    """The quote of the string literal at `span` (`"` when it is not one)."""
    char = text[span.start : span.start + 1]
    return char if char in ("'", '"') else '"'

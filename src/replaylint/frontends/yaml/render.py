"""Fixes written back into YAML: words in their own container and style, env entries, config keys.

- A word is replaced in place (the item's quote style is kept; a new scalar is quoted only
  when a plain one would not read back as the same string, so `"0"` stays a string).
- New words go right after the anchor word (the mask switch) in the same container: `, "--a",
  "b"` in a flow sequence, one `- item` line each at the same indentation in a block
  sequence, ` --a b` inside a compose command string.
- Removed words take their separator (flow), their whole line (block), or their blank.
- Environment entries are removed with their lines; values are replaced keeping quotes.
- Settings that live in a `--config` file are edited there (see `vllm_config.edit`).
- Launches found in a shell script held by a scalar are rendered by the shell interpreter (`readers.shell`); its
  edits are then escaped for the scalar (`"` and `\\` in a double-quoted scalar, `''` in a
  single-quoted one), and dropped when they cannot be written there (a line break in a
  folded scalar, `: ` in a plain one).
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

from ...command import flag_words, where_written
from ...edits import set_json_key
from ...model import Edit, Fix, Launch, RemoveEnv, RemoveSetting, RenameSetting, SetEnv, SetSetting, SplitWord
from ...readers import vllm_config
from ...readers.yaml_scalars import escape_in_scalar
from ...readers.yaml_text import shared_regions
from ...readers.yaml_words import Container
from ...source import SourceFile
from ...vllm.engine_fields import FIELDS, flag_for
from .container_launch import ScriptHandle, YamlHandle, shell_frontend
from .standalone_config import ConfigHandle


def render(launch: Launch, fix: Fix, source: SourceFile) -> list[Edit] | None:
    edits = _render(launch, fix, source)
    if edits and "*" in source.text:
        shared = shared_regions(source.text)
        for edit in edits:
            if edit.span.path == source.path and any(start <= edit.span.start <= end and edit.span.end >= start for start, end in shared):
                return None  # the text belongs to an anchor that other places use too
    return edits


def _render(launch: Launch, fix: Fix, source: SourceFile) -> list[Edit] | None:
    handle = launch.handle
    if isinstance(handle, ScriptHandle):
        return _script(launch, handle, fix, source)
    if isinstance(handle, ConfigHandle):
        config = vllm_config.read(source.path, source.text)
        if config is None:
            return None
        edits: list[Edit] = []
        for intent in fix.intents:
            found = vllm_config.edit(config, launch, intent)
            if found is None:
                return None
            edits.extend(found)
        return edits
    if not isinstance(handle, YamlHandle):
        return None
    return _Renderer(launch, handle, source).run(fix)


class _Renderer:
    def __init__(self, launch: Launch, handle: YamlHandle, source: SourceFile) -> None:
        self.launch = launch
        self.handle = handle
        self.source = source
        self.removals: dict[int, tuple[Container, set[int]]] = {}

    def local(self, name: str) -> list[int]:
        return [i for i in self.handle.token_indices.get(name, ()) if self.handle.tokens[i].span.path == self.source.path]

    def run(self, fix: Fix) -> list[Edit] | None:
        edits: list[Edit] = []
        for intent in fix.intents:
            found = self.intent(intent)
            if found is None:
                return None
            edits.extend(found)
        for container, positions in self.removals.values():
            removed = container.remove(self.source.index, positions)
            if removed is None:
                return None
            edits.extend(removed)
        return edits

    def intent(self, intent: Any) -> list[Edit] | None:
        handle = self.handle
        if isinstance(intent, (SetSetting, RemoveSetting, RenameSetting)):
            setting = self.launch.get(intent.name.partition(".")[0])
            elsewhere = setting is not None and setting.span.path != self.source.path
            if not elsewhere and isinstance(intent, SetSetting) and setting is None:
                anchor = self.launch.get(intent.after)
                elsewhere = anchor is not None and anchor.span.path != self.source.path and not self.local(intent.after)
            if elsewhere:
                return vllm_config.config_render(self.launch, intent, self.source)
        if isinstance(intent, SetSetting):
            return self.set(intent)
        if isinstance(intent, RemoveSetting):
            for position in self.local(intent.name):
                if not self.remove_token(position):
                    return None
            return []
        if isinstance(intent, RenameSetting):
            indices = self.local(intent.name)
            if not indices:
                return None
            token = handle.tokens[indices[0]]
            rest = token.text.partition("=")[2] if token.text and "=" in token.text else None
            flag = flag_for(intent.new_name)
            return self.replace_token(indices[0], flag if rest is None else f"{flag}={rest}")
        if isinstance(intent, RemoveEnv):
            place = handle.env.get(intent.name)
            if place is None or place.remove is None:
                return None
            return [Edit(place.remove, place.replacement)]
        if isinstance(intent, SetEnv):
            place = handle.env.get(intent.name)
            if place is None or place.value is None:
                return None
            content = place.quote(intent.value)
            return None if content is None else [Edit(place.value, content)]
        if isinstance(intent, SplitWord):
            return self.split(intent)
        return None

    def split(self, intent: SplitWord) -> list[Edit] | None:
        """`--flag=value` as two words: the flag in the word's place, the value after it."""
        position = next((i for i, t in enumerate(self.handle.tokens) if t.span == intent.span and t.text and "=" in t.text), None)
        place = self.handle.places[position] if position is not None else None
        if place is None:
            return None
        flag, value = (self.handle.tokens[position].text or "").split("=", 1)
        replaced = self.replace_token(position, flag)
        added = place.container.insert(self.source.index, place.position, [value])
        return None if replaced is None or added is None else [*replaced, added]

    # words

    def remove_token(self, position: int) -> bool:
        place = self.handle.places[position]
        if place is None:
            return False
        entry = self.removals.setdefault(id(place.container), (place.container, set()))
        entry[1].add(place.position)
        return True

    def replace_token(self, position: int, word: str) -> list[Edit] | None:
        place = self.handle.places[position]
        if place is None:
            return None
        edit = place.container.replace(self.source.index, place.position, word)
        return None if edit is None else [edit]

    def set(self, intent: SetSetting) -> list[Edit] | None:
        handle = self.handle
        name, _, key = intent.name.partition(".")
        setting = self.launch.get(name)
        indices = self.local(name)
        if key:
            return self.set_key(setting, indices, key, intent.value)
        if setting is not None and indices:
            return self.replace_value(name, indices[-1], intent.value)
        after = [i for i in self.local(intent.after) if handle.places[i] is not None]
        if not after:
            after = [i for i, place in enumerate(handle.places) if place is not None and place.container.kind in ("flow", "block", "words")]
        words = flag_words(name, intent.value)
        if not after:
            if handle.append is None:
                return None
            edit = handle.append(words)
            return None if edit is None else [edit]
        place = handle.places[max(after)]
        assert place is not None
        edit = place.container.insert(self.source.index, place.position, words)
        return None if edit is None else [edit]

    def replace_value(self, name: str, last: int, value: Any) -> list[Edit] | None:
        token = self.handle.tokens[last]
        if token.written is not None:
            return where_written(token, str(value), self.source)
        text = token.text or ""
        flag_part, eq, _ = text.partition("=")
        field = FIELDS.get(name)
        if field is not None and field.kind == "bool" and isinstance(value, bool):
            edits: list[Edit] = []
            if value:
                if eq:
                    found = self.replace_token(last, flag_part)
                    if found is None:
                        return None
                    edits.extend(found)
                for issue in self.launch.issues:
                    if issue.name == name and issue.kind == "switch-followed-by-value":
                        stray = [i for i, t in enumerate(self.handle.tokens) if t.span == issue.span]
                        if not stray or not all(self.remove_token(i) for i in stray):
                            return None
                return edits
            return self.replace_token(last, "--no-" + flag_part.lstrip("-") if not flag_part.startswith("--no-") else flag_part)
        if eq:
            return self.replace_token(last, f"{flag_part}={value}")
        return self.replace_token(last, json.dumps(value) if isinstance(value, (dict, list)) else str(value))

    def set_key(self, setting: Any, indices: list[int], key: str, value: Any) -> list[Edit] | None:
        if setting is None:
            return None
        sub = setting.keys.get(key)
        tokens = self.handle.tokens
        if sub is not None and sub.value_span is not None and sub.value_span.path == self.source.path:
            for i in indices:
                if tokens[i].span == sub.value_span:
                    text = tokens[i].text or ""
                    word = f"{text.partition('=')[0]}={json.dumps(value)}" if text.startswith("-") and "=" in text else json.dumps(value)
                    return self.replace_token(i, word)
            return None
        if setting.value_span is not None:  # a JSON value
            for i in indices:
                token = tokens[i]
                if token.span == setting.value_span and token.text:
                    replaced = set_json_key(token.text, key, value)
                    if replaced is not None:
                        return self.replace_token(i, replaced)
                if token.written == setting.value_span and setting.value_span.path == self.source.path:  # `$(SPEC)`: in its `value:`
                    span = setting.value_span
                    replaced = set_json_key(self.source.text[span.start : span.end], key, value)
                    return None if replaced is None else [Edit(span, replaced)]
        return None


def _script(launch: Launch, handle: ScriptHandle, fix: Fix, source: SourceFile) -> list[Edit] | None:
    shell = shell_frontend()
    if shell is None or not handle.fixable:
        return None
    edits = shell.render(replace(launch, handle=handle.inner), fix, source)
    if edits is None:
        return None
    start, end = handle.region
    result = []
    for edit in edits:
        if edit.span.path != source.path or not (start <= edit.span.start and edit.span.end <= end) or not edit.content:
            result.append(edit)
            continue
        content = escape_in_scalar(edit.content, handle.style) if not handle.escaped else edit.content
        if content is None or (handle.escaped and "\n" in content):
            return None
        result.append(Edit(edit.span, content))
    return result

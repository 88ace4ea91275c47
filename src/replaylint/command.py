"""vLLM command lines: launches from their words, fixes back into words. Shared by the shell,
Dockerfile, YAML and Python-argv frontends and by the framework adapters that build a vLLM
command (TRL, SageMaker).

A frontend finds the words of a command and where they sit; `command_launch` runs them
through `vllm.command_line` and builds the `Launch` (`frameworks.commands` first hands a framework's
own launcher to its adapter); `render` writes fixes back as word edits in the frontend's
syntax (`WordSyntax`): shell words, a JSON exec array, a YAML list, a Python list.
"""

from __future__ import annotations

import json
from dataclasses import field
from typing import Any, Callable, Sequence as Seq

from .edits import Sequence, insert_after, remove, set_json_key
from .launch_context import EnvPlace, LaunchContext
from .model import (
    Edit,
    Fix,
    Launch,
    RemoveEnv,
    RemoveSetting,
    RenameSetting,
    SetEnv,
    SetSetting,
    Setting,
    Span,
    SplitWord,
)
from .records import record
from .regexes import on_use
from .source import SourceFile
from .vllm import command_line
from .vllm.command_line import Token
from .vllm.engine_fields import FIELDS, flag_for
from .vllm.releases import NEWEST


@record(unsafe_hash=True)
class WordSyntax:
    """How words are written in one container: quoting, separator, line continuation."""

    quote: Callable[[str], str]
    separator: str = " "
    continuation: str = ""

    def join(self, words: Seq[str]) -> str:
        glue = ", " if self.separator == "," else " "
        return glue.join(self.quote(word) for word in words)


@record
class CommandHandle:
    tokens: list[Token]
    elements: Sequence
    syntax: WordSyntax
    token_indices: dict[str, tuple[int, ...]]
    env: dict[str, EnvPlace] = field(default_factory=dict)
    config_render: Callable[[Launch, Any, SourceFile], "list[Edit] | None"] | None = None
    # a program of the tree that builds the engine from these words (`frameworks.engine_parser_programs`):
    # its path and the lines of its `EngineArgs.from_cli_args(...)` calls, whose engine its requests go to
    built_by: tuple[str, tuple[int, ...]] | None = None


def command_launch(
    context: LaunchContext,
    span: Span,
    tokens: list[Token],
    elements: Sequence,
    syntax: WordSyntax,
    entrypoint: str = "serve",
    complete: bool | None = None,
) -> Launch | None:
    """A launch from the words after the launcher (`vllm serve`), where `context` says it runs;
    `elements` are their bounds in the source for edits (usually the token spans; a YAML item
    may include its quotes). `entrypoint` is one of vLLM's (`serve`, `api_server`, `dynamo`: its
    parser, not Dynamo's own flags, which `frameworks.commands` adds). `complete`: whether the
    launch names what it starts without the script's forwarded arguments (None: it names its
    model, positionally or with `--model`, or a `--config` file)."""
    parsed = command_line.parse(tokens, context.release or NEWEST, context.load_config, entrypoint)
    handle = CommandHandle(tokens, elements, syntax, parsed.token_indices, dict(context.env_places))
    reasons = [*context.open_reasons, *parsed.open_reasons]
    if complete is None:
        complete = "model" in parsed.settings or parsed.config_file is not None
    forwarded = judged_without(parsed.forwarded, complete, reasons)
    launch = Launch(
        kind=context.kind,
        span=span,
        settings=parsed.settings,
        env=dict(context.env),
        open_reasons=tuple(reasons),
        version_hint=context.version_hint,
        issues=tuple(parsed.issues),
        condition=context.condition,
        label=context.label,
        handle=handle,
        forwarded=forwarded,
        entrypoint=entrypoint,
        env_open=context.env_open,
    )
    return launch


def judged_without(forwarded: Seq[str], complete: bool, reasons: list[str]) -> tuple[str, ...]:
    """The script's forwarded arguments (`"$@"`) a launch is judged without: a complete launch,
    one that names what it starts, is judged as the script is written, run without arguments.
    A wrapper whose arguments carry the launch itself (`vllm serve "$@"`, no model named), or a
    launch already open-ended for another reason, is open-ended with them (added to `reasons`)."""
    if complete and not reasons:
        return tuple(forwarded)
    reasons.extend(forwarded)
    return ()


def token_elements(tokens: Seq[Token], close: int | None = None, separator: str = " ") -> Sequence:
    return Sequence(tuple((token.span.start, token.span.end) for token in tokens), close, separator)


# -- rendering -------------------------------------------------------------------------------


def flag_words(name: str, value: Any) -> list[str]:
    """The words that give engine argument `name` the value `value` on a command line."""
    flag = flag_for(name)
    field = FIELDS.get(name)
    if field is not None and field.kind == "bool" and isinstance(value, bool):
        return [flag] if value else ["--no-" + flag[2:]]
    if isinstance(value, (dict, list)):
        return [flag, json.dumps(value)]
    return [flag, str(value)]


def _local(handle: CommandHandle, name: str, path: str) -> tuple[int, ...]:
    return tuple(i for i in handle.token_indices.get(name, ()) if handle.tokens[i].span.path == path)


def render(launch: Launch, fix: Fix, source: SourceFile) -> list[Edit] | None:
    handle: CommandHandle | None = launch.handle
    if handle is None:
        return None
    edits: list[Edit] = []
    removals: set[int] = set()
    for intent in fix.intents:
        setting = launch.get(intent.name.partition(".")[0]) if isinstance(intent, (SetSetting, RemoveSetting, RenameSetting)) else None
        if setting is None and isinstance(intent, SetSetting):
            # A new setting goes next to its anchor: into the --config file when the anchor is there.
            anchor = launch.get(intent.after)
            if anchor is not None and anchor.span.path != source.path and not _local(handle, intent.after, source.path):
                setting = anchor
        if setting is not None and setting.span.path != source.path:
            if handle.config_render is None:
                return None
            other = handle.config_render(launch, intent, source)
            if other is None:
                return None
            edits.extend(other)
            continue
        if isinstance(intent, SetSetting):
            edit = _set(launch, handle, intent, source)
            if edit is None:
                return None
            edits.extend(edit)
        elif isinstance(intent, RemoveSetting):
            removals.update(_local(handle, intent.name, source.path))
        elif isinstance(intent, RenameSetting):
            indices = _local(handle, intent.name, source.path)
            if not indices:
                return None
            token = handle.tokens[indices[0]]
            flag = flag_for(intent.new_name)
            rest = token.text.partition("=")[2] if token.text and "=" in token.text else None
            edits.append(Edit(token.span, handle.syntax.quote(flag if rest is None else f"{flag}={rest}")))
        elif isinstance(intent, RemoveEnv):
            place = handle.env.get(intent.name)
            if place is None:
                return None
            edits.append(Edit(place.remove, place.replacement))
        elif isinstance(intent, SetEnv):
            place = handle.env.get(intent.name)
            if place is None or place.value is None:
                return None
            edits.append(Edit(place.value, _written_like(source.text[place.value.start : place.value.end], place.quote(intent.value))))
        elif isinstance(intent, SplitWord):
            token = next((t for t in handle.tokens if t.span == intent.span and t.text and "=" in t.text), None)
            if token is None:
                return None
            edits.append(Edit(token.span, handle.syntax.join(token.text.split("=", 1))))
    if removals:
        edits.extend(remove(source.index, handle.elements, removals))
    return edits


def where_written(token: Token, word: str, source: SourceFile) -> list[Edit] | None:
    """A word that is one variable's whole value gets its new value where the value is written
    (`ENV MODE=...`, an `env:` value), in the quotes it had there; only a plain word, which
    means the same in every quoting, and only in this file."""
    written = token.written
    if written is None or written.path != source.path or not _PLAIN.match(word) or word.lower() in _TYPED:
        return None
    original = source.text[written.start : written.end]
    quoted = len(original) >= 2 and original[0] == original[-1] and original[0] in "'\""
    return [Edit(written, f"{original[0]}{word}{original[0]}" if quoted else word)]


_PLAIN = on_use(r"^[A-Za-z][A-Za-z0-9_.:/+-]*$")
_TYPED = {"true", "false", "yes", "no", "on", "off", "y", "n", "null", "none"}  # a YAML scalar, bare, is not a string


def _written_like(original: str, word: str) -> str:
    """`word` in the quotes the user wrote the old value in (`"true"` becomes `"1"`), when it
    needs none of its own."""
    quoted = len(original) >= 2 and original[0] == original[-1] and original[0] in "'\""
    return f"{original[0]}{word}{original[0]}" if quoted and word.isalnum() else word


def _set(launch: Launch, handle: CommandHandle, intent: SetSetting, source: SourceFile) -> list[Edit] | None:
    name, _, key = intent.name.partition(".")
    setting = launch.get(name)
    indices = _local(handle, name, source.path)
    if key:
        return _set_key(setting, handle, indices, key, intent.value, source)
    if setting is not None and indices:
        return _replace(launch, handle, name, indices[-1], intent.value, source)
    after = _local(handle, intent.after, source.path)
    position = max(after) if after else len(handle.tokens) - 1
    words = handle.syntax.join(flag_words(name, intent.value))
    if any(issue.kind == "broken-continuation" for issue in launch.issues):
        # The command already ends early at a `\  # comment`: add the words on the anchor's line.
        anchor_end = handle.elements.elements[position][1]
        return [Edit(source.index.span(anchor_end, anchor_end), f" {words}")]
    return [insert_after(source.index, handle.elements, position, words, handle.syntax.continuation)]


def _replace(launch: Launch, handle: CommandHandle, name: str, last: int, value: Any, source: SourceFile) -> list[Edit] | None:
    """Rewrite the last occurrence in place: a switch loses its `=value` (and a stray `true`)."""
    token = handle.tokens[last]
    if token.written is not None:
        return where_written(token, str(value), source)
    text = token.text or ""
    flag_part, eq, _ = text.partition("=")
    edits = []
    if FIELDS.get(name) is not None and FIELDS[name].kind == "bool" and value is True:
        edits.append(Edit(token.span, handle.syntax.quote(flag_part)))
        for issue in launch.issues:
            if issue.name == name and issue.kind == "switch-followed-by-value":
                stray = [i for i, t in enumerate(handle.tokens) if t.span == issue.span]
                if stray:
                    edits.extend(remove(source.index, handle.elements, set(stray)))
        return edits
    if eq:
        return [Edit(token.span, handle.syntax.quote(f"{flag_part}={value}"))]
    return [Edit(token.span, handle.syntax.quote(str(value)))]


def _set_key(
    setting: Setting | None, handle: CommandHandle, indices: tuple[int, ...], key: str, value: Any, source: SourceFile
) -> list[Edit] | None:
    """Set one key of a dict-valued option: its dotted word's value, or inside the JSON."""
    if setting is None:
        return None
    sub = setting.keys.get(key)
    if (
        sub is not None
        and sub.value_span is not None
        and sub.value_span.path == source.path
        and _in_a_word(handle, indices, sub.value_span)
    ):
        return [Edit(sub.value_span, handle.syntax.quote(_dotted_word(handle, indices, sub.value_span, value)))]
    if setting.value_span is not None and setting.value_span.path == source.path:  # a JSON value (`-sc '{...}'`, `ENV SC='{...}'`)
        span = setting.value_span
        replaced = set_json_key(source.text[span.start : span.end], key, value)
        if replaced is not None:
            return [Edit(span, replaced)]
    return None


def _in_a_word(handle: CommandHandle, indices: tuple[int, ...], span: Span) -> bool:
    """Whether a key's value is a word of its own or the value of a `-X.key=value` word; not a
    key of a dict the program turns into the JSON word (`json.dumps(SPEC)`), which is Python."""
    for index in indices:
        token = handle.tokens[index]
        dotted = bool(token.text and token.text.startswith("-") and "=" in token.text)
        if token.span == span or (dotted and token.span.start <= span.start and span.end <= token.span.end):
            return True
    return False


def _dotted_word(handle: CommandHandle, indices: tuple[int, ...], span: Span, value: Any) -> str:
    """The new word for a dotted key: its value, or `-X.key=value` when both share one word."""
    for index in indices:
        token = handle.tokens[index]
        if token.span == span and token.text and token.text.startswith("-") and "=" in token.text:
            return f"{token.text.partition('=')[0]}={_json_word(value)}"
    return _json_word(value)


def _json_word(value: Any) -> str:
    return json.dumps(value)

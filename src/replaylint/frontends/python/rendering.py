"""Fixes written back into Python: keyword arguments and dict entries of an engine call set,
added, renamed or removed, `os.environ` statements changed or removed; command lines (argv
lists, shell strings) go through `command.render` and the shell's render."""

from __future__ import annotations

from ... import command
from ...edits import insert_after, remove
from ...model import Edit, Fix, Launch, RemoveEnv, RemoveSetting, RenameSetting, SetEnv, SetSetting, Span
from ...source import SourceFile
from .flow import FlowHandle, render as render_flowed
from .flow.placing import element, env_edit, literal
from .flow.server_argv import WordListHandle
from .launches import Handle
from .static_values import Container
from .subprocess_argv import ArgvHandle


def render(launch: Launch, fix: Fix, source: SourceFile) -> list[Edit] | None:
    if isinstance(launch.handle, (ArgvHandle, WordListHandle)):
        edits = command.render(launch, fix, source)
        removes_appended = edits and any(
            not edit.content and edit.span.start <= word.start and word.end <= edit.span.end
            for edit in edits
            for word in launch.handle.appended
        )
        return None if removes_appended else edits  # `cmd.append()` would not run
    if isinstance(launch.handle, command.CommandHandle):
        from ...readers import shell  # a shell string's launch (`os.system("vllm serve ...")`)

        return shell.render(launch, fix, source)
    if isinstance(launch.handle, FlowHandle):
        return render_flowed(launch, fix, launch.handle, source)
    handle: Handle | None = launch.handle
    if handle is None:
        return None
    edits: list[Edit] = []
    removals: dict[int, tuple[Container, set[int]]] = {}
    for intent in fix.intents:
        if isinstance(intent, SetSetting):
            edit = _set_setting(launch, handle, intent, source)
            if edit is None:
                return None
            edits.append(edit)
        elif isinstance(intent, RemoveSetting):
            place = handle.places.get(intent.name)
            if place is None:
                continue
            container, position = place
            removals.setdefault(id(container), (container, set()))[1].add(position)
        elif isinstance(intent, RenameSetting):
            span = handle.name_spans.get(intent.name)
            if span is None:
                return None
            quote = _quote_at(source, span, "")
            edits.append(Edit(span, f"{quote}{intent.new_name}{quote}"))
        elif isinstance(intent, (RemoveEnv, SetEnv)):
            edit = env_edit(intent, launch, handle.env_statements, source, lambda path: source.text)
            if edit is None:
                return None
            edits.append(edit)
    for container, positions in removals.values():
        edits.extend(remove(source.index, container.sequence, positions))
    if removals:
        from .unused_imports import unused_import_edits

        edits.extend(unused_import_edits(source, edits))
    return edits


def _set_setting(launch: Launch, handle: Handle, intent: SetSetting, source: SourceFile) -> Edit | None:
    name, _, key = intent.name.partition(".")
    setting = launch.get(name)
    if key:
        if setting is None:
            return None
        sub = setting.keys.get(key) or setting.keys.get(key.replace("_", "-"))
        if sub is not None and sub.value_span is not None:
            return Edit(sub.value_span, literal(intent.value, _quote_at(source, sub.value_span)))
        place = handle.places.get(f"{name}.")
        if place is None:
            return None
        container, _ = place
        last = len(container.sequence.elements) - 1
        return insert_after(source.index, container.sequence, last, element(container, key, intent.value))
    if setting is not None and setting.value_span is not None:
        return Edit(setting.value_span, literal(intent.value, _quote_at(source, setting.value_span, handle.call.quote)))
    container, position = handle.places.get(intent.after, (handle.call, len(handle.call.sequence.elements) - 1))
    return insert_after(source.index, container.sequence, position, element(container, name, intent.value))


def _quote_at(source: SourceFile, span: Span, default: str = '"') -> str:
    char = source.text[span.start : span.start + 1]
    return char if char in ("'", '"') else default

"""The launch of a shell command that starts vLLM (or a framework): its words as tokens with
spans, the `VLLM_*` environment it sees (exports, prefixes, `env`/`sudo`/`docker run`
wrappers, `--env-file`s), its release evidence, the `--config` file it loads, and a
`broken-continuation` issue for `--flag \\  # comment`. Fixes are written back as shell words
(`ShellHandle`), only where every word can be edited."""

from __future__ import annotations

import os
import re
from dataclasses import replace
from typing import Any, Callable

from ...command import CommandHandle, EnvPlace, WordSyntax
from ...edits import Sequence
from ...frameworks.commands import command_client, command_launch
from ...launch_context import LaunchContext
from ...model import UNKNOWN, ArgIssue, Launch, LaunchKind, Setting, Span, VersionHint
from ...records import record
from ...source import ExtractContext, SourceFile
from ...vllm.command_line import Token
from ...vllm.releases import Release
from .file_words import json_file_token
from .grammar import Node
from .json_holes import json_with_holes
from .launchers import EnvWord, Invocation, image_release
from .nodes import touches_error, words_of
from .place import Place, quoting
from .ray_jobs import job_env
from .spans import ScriptSpans
from .values import Chunk, Container, Field
from .world import EnvEntry, World, relevant_env, unknown_entry

_BROKEN_CONTINUATION = re.compile(r"[ \t]*(\\[ \t]+#[^\n]*)")


@record
class ShellHandle(CommandHandle):
    """`command.render`'s handle, plus whether some words sit in another quoting context than
    the command (a piece of `FLAGS="..."`; a value the outer shell put into a `-c` string, at
    `elsewhere`, where it is written): then only plain words may be written there."""

    mixed: bool = False
    elsewhere: frozenset[tuple[int, int]] = frozenset()  # file spans of values a `-c` string took from where they are written


@record
class LaunchBuilder:
    """Builds the launches of one script's commands (see the module docstring)."""

    source: SourceFile
    context: ExtractContext
    kind: LaunchKind
    base_hint: VersionHint | None
    spans: ScriptSpans

    def build(self, invocation: Invocation, env_words: list[EnvWord], world: World, place: Place, node: Node, span: Span) -> Launch | None:
        if place.parsed.root.has_error and touches_error(node):
            return None
        args = invocation.args
        tokens = [
            json_file_token(f, self.spans.span(f.start, f.end), self.context, self.source.path)
            or Token(
                None if f.spread else f.text,
                self.spans.span(f.start, f.end),
                f.raw,
                spread=f.spread,
                value=json_with_holes(f),
                forwarded=bool(f.forwarded),
                written=written_at(f, world, self.spans),
            )
            for f in args
        ]
        containers: dict[Container, int] = {}
        for word in args:
            containers.setdefault(word.container, len(containers))
        elements = Sequence(
            tuple((f.start, f.end) for f in args),
            None,
            " ",
            groups=tuple(containers[f.container] for f in args),
            closes=tuple(container.close for container in containers),
        )
        env = self.command_env(world, env_words, invocation.found)
        hint = self._hint(invocation, world)
        release = Release.parse(hint.releases[0]) if hint is not None else None
        command_layers = words_of(place, node).layers
        context = LaunchContext(
            self.kind,
            env={name: entry.setting for name, entry in env.items()},
            env_places={name: entry.place for name, entry in env.items() if entry.place is not None},
            release=release,
            load_config=self._config_loader(),
            read_text=self.context.read_text,
            version_hint=hint,
            label=invocation.label,
            ray_job=invocation.found.ray_job is not None,
        )
        syntax = WordSyntax(quoting(command_layers), " ", " \\")
        launch = command_launch(context, span, tokens, elements, syntax, invocation.entrypoint)
        if launch is None:
            client = command_client(context, span, tokens, invocation.entrypoint)
            if client is not None:  # a trainer that sends requests to a server another command starts
                self.context.clients.append(client)
            return None
        editable = "?" not in command_layers and not any(f.shared for f in args) and not _overlapping(args)
        handle = None
        if editable and launch.handle is not None:
            handle = ShellHandle(
                **{**vars(launch.handle), "config_render": _config_render()},
                mixed=any(f.container.layers != command_layers for f in args),
                elsewhere=place.written_elsewhere(),
            )
        env_open = invocation.found.env_open or (world.env_open and invocation.found.ray_job is None)
        return replace(launch, env_open=env_open, handle=handle, local=_reached_locally(launch, invocation.found.published))

    def curl(self, words: list[Field], span: Span) -> None:
        """A `curl` that posts to a server (`curl.curl_client`): a client for the servers of the run."""
        from .curl import curl_client

        client = curl_client(words, span, self.context, self.spans, self.source.path)
        if client is not None:
            self.context.clients.append(client)

    def broken_continuation(self, launch: Launch, place: Place, node: Node) -> Launch:
        """`--flag \\  # comment`: the backslash escapes a space, the comment ends the command,
        and the next line runs as a command of its own. Recorded as an issue of the launch."""
        end = place.parsed.end(node)
        match = _BROKEN_CONTINUATION.match(place.parsed.text, end)
        if match is None or not place.exact(end, match.end()):
            return launch
        start, stop = place.range(match.start(1), match.end())
        detail = "a backslash followed by a space and a comment does not continue the line; the next line is a separate command"
        issue = ArgIssue("broken-continuation", self.spans.span(start, stop), self.source.text[start:stop], "", detail)
        return replace(launch, issues=(*launch.issues, issue))

    def _config_loader(self) -> Callable[[str, Token], list[Token] | None] | None:
        """`--config FILE.yaml`: read by `words.vllm_config`, next to this file."""
        try:
            from ..vllm_config import load_config_tokens
        except ImportError:
            return None
        return lambda path, token: load_config_tokens(path, token, self.context, self.source.path)

    def _hint(self, invocation: Invocation, world: World) -> VersionHint | None:
        image = invocation.found.image
        if image is not None:
            release = image_release(image)
            if release is None:
                return None
            return VersionHint((release,), f"image {image.text}", self.spans.span(image.start, image.end))
        return world.pin or self.base_hint

    def command_env(self, world: World, env_words: list[EnvWord], found: Any) -> dict[str, EnvEntry]:
        """The `VLLM_*` variables a command sees: exported ones, prefixes, wrapper settings; a Ray
        job's are its cluster's and its runtime env's (`ray_jobs`)."""
        if found.ray_job is not None:
            env, open_ended = job_env(found.ray_job, world, self.context.read_text, self.source, self.spans.span)
            found.env_open = found.env_open or open_ended
            return env
        env = {name: entry for name, entry in world.env.items() if relevant_env(name)}
        for word in env_words:
            if relevant_env(word.name):
                env[word.name] = self._word_entry(word, env.get(word.name))
        mode = found.env_mode
        if mode in ("clear", "container"):
            env = {}
        elif mode == "reset":
            env = {name: unknown_entry(entry) for name, entry in env.items()}
        for path in found.env_files:  # docker: `-e` over `--env-file`, later files over earlier
            settings = self._env_file(path)
            if settings is None:
                found.env_open = True
                continue
            env.update((name, EnvEntry(setting, None)) for name, setting in settings.items() if relevant_env(name))
        for word in found.env_words:
            if not relevant_env(word.name):
                continue
            if word.unset:
                env.pop(word.name, None)
            else:
                env[word.name] = self._word_entry(word, env.get(word.name) if mode not in ("container",) else world.env.get(word.name))
        return env

    def _env_file(self, path: str) -> dict[str, Setting] | None:
        """`docker run --env-file PATH`: docker reads it from the directory it runs in, which is
        not known; looked for next to the script, then from where replaylint runs."""
        from ..env_file import parse

        candidates = [os.path.normpath(os.path.join(os.path.dirname(self.source.path), path)), os.path.normpath(path)]
        for candidate in dict.fromkeys(candidates) if not os.path.isabs(path) else ():
            text = self.context.read_text(candidate)
            if text is not None:
                return parse(candidate, text)
        return None

    def _word_entry(self, word: EnvWord, inherited: EnvEntry | None) -> EnvEntry:
        first, last = word.words[0], word.words[-1]
        span = self.spans.span(first.start, last.end)
        spelling = " ".join(w.raw for w in word.words)
        if word.value is None:
            value = inherited.setting.value if inherited is not None else UNKNOWN
            return EnvEntry(Setting(word.name, value, span, spelling), EnvPlace(self.spans.word_removal(first.start, last.end), None))
        value_span = self.spans.span(*word.value_span) if word.value_span is not None else None
        setting = Setting(word.name, word.value, span, spelling, value_span)
        return EnvEntry(setting, EnvPlace(self.spans.word_removal(first.start, last.end), value_span, quoting(first.container.layers)))


def _reached_locally(launch: Launch, options: list[tuple[str, str | None]]) -> bool:
    """Whether a client on the host reaches a `docker run` server at `localhost:PORT` where the run
    publishes ports (`-p 8000:8000`, as compose's `ports:`): only through its port published on
    itself, or `--network host`; not on another port of the host, nor one a variable chooses."""
    from ...served import publishes_itself
    from ...vllm.unusable_masks import server_port

    published = [value for name, value in options if name in ("-p", "--publish")]
    port = server_port(launch) if published else None
    if port is None or any(name in ("--network", "--net") and value == "host" for name, value in options):
        return True
    return any(value is not None and "$" not in value and publishes_itself(value, port) for value in published)


def written_at(word: Field, world: World, spans: ScriptSpans) -> Span | None:
    """Where the value of a word that is one variable alone (`"$SPEC"`, `${MODE}`) is written:
    the host's `ENV`/`env:` value when the script did not set it again, else the script's own
    assignment (its text, not a default taken for an unset variable)."""
    if word.variable is None and _assembled_option(word):
        named = max(word.chunks, key=lambda chunk: sum(char.isalnum() for char in chunk.text))  # type: ignore[union-attr]
        return spans.span(named.start, named.end)
    chunk = word.chunks[0] if word.variable is not None and word.known and len(word.chunks) == 1 else None
    if not isinstance(chunk, Chunk) or chunk.site is None or chunk.assumed is not None:
        return None
    entry = world.env.get(word.variable)  # type: ignore[arg-type]
    written = entry.setting.value_span if entry is not None else None
    if written is not None and (chunk.start, chunk.end) == (written.start, written.end):
        return written if chunk.text == entry.setting.value else None  # type: ignore[union-attr]
    return spans.span(chunk.start, chunk.end) if chunk.exact else None


def _assembled_option(word: Field) -> bool:
    """An option's name a variable holds put together from pieces written apart (`FLAGS="$FLAGS --$feature"`
    over `FEATURES="... enable-trace-replay"`): it is named where most of its letters are written."""
    if not (word.known and len(word.chunks) > 1 and word.text.startswith("-") and "=" not in word.text):  # type: ignore[union-attr]
        return False
    chunks = [chunk for chunk in word.chunks if isinstance(chunk, Chunk) and chunk.exact and chunk.assumed is None]
    return len(chunks) == len(word.chunks) and chunks[0].site is not None and len({chunk.site for chunk in chunks}) == 1


def _config_render() -> Callable | None:
    try:
        from ..vllm_config import config_render
    except ImportError:
        return None
    return config_render


def _overlapping(fields: list[Field]) -> bool:
    """Words that share text (all of `bash -c "$CMD"`): an edit of one would change others."""
    spans = sorted((f.start, f.end) for f in fields if f.end > f.start)
    return any(later[0] < earlier[1] for earlier, later in zip(spans, spans[1:]))

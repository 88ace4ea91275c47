"""From words and environment to a `Launch`: launcher recognition, images, embedded scripts.

Shared by the Kubernetes, docker-compose, Helm and workflow readers. A command is a vLLM
launch when `programs.split_launcher` finds one at its start (`vllm serve`, `python -m
vllm.entrypoints.openai.api_server`, `python -m dynamo.vllm`, behind `uv run` ...),
optionally behind `env NAME=VALUE ...`; `sh -c SCRIPT` (any of sh/bash/dash/zsh/ash, `-c` in a flag cluster such as
`-lc`/`-ec`) hands SCRIPT to the shell interpreter. An init process in front (`tini --`,
`dumb-init`) is skipped. The official `vllm/vllm-openai` image runs
`vllm serve` when nothing replaces its entrypoint.
"""

from __future__ import annotations

import inspect
import re
from dataclasses import field, replace
from types import ModuleType
from typing import Any, Callable, Iterable

from yaml.nodes import Node

from ...command import EnvPlace, WordSyntax, token_elements
from ...frameworks.commands import command_launch
from ...launch_context import LaunchContext
from ...model import Edit, Launch, LaunchKind, Setting, Span, VersionHint
from ...programs import split_launcher, submits_a_job
from ...readers.yaml_nodes import HOLE, ComposeError, compose_all, forget_walks
from ...readers.yaml_text import Text
from ...readers.yaml_words import Place, Words
from ...records import record
from ...shells import command_string_at
from ...source import ExtractContext, SourceFile
from ...vllm.command_line import ConfigLoader, Token
from ...vllm.images import is_vllm_image, release_from_image
from ...vllm.releases import Release

_INITS = frozenset(("tini", "dumb-init"))
_ENV_ASSIGNMENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")
# Flags that a container's args can only mean for vLLM (used when the entrypoint is unknown).
_REPLAY_FLAG = re.compile(r"^--(return[-_]sampling[-_]mask|enable[-_]return[-_]sampling[-_]mask)(=|$)")


@record
class Env:
    """A container's environment: settings for rules, places for fixes, values for `$(VAR)`."""

    settings: dict[str, Setting] = field(default_factory=dict)
    places: dict[str, EnvPlace] = field(default_factory=dict)
    values: dict[str, Any] = field(default_factory=dict)
    open: bool = False

    def set(self, setting: Setting, place: EnvPlace | None) -> None:
        self.settings[setting.name] = setting
        self.values[setting.name] = setting.value
        if place is not None:
            self.places[setting.name] = place
        else:
            self.places.pop(setting.name, None)

    def copy(self) -> Env:
        return Env(dict(self.settings), dict(self.places), dict(self.values), self.open)


# An environment entry of a YAML file: removing the only entry leaves an empty `[]`/`{}`
# (`EnvPlace.replacement`), so the key keeps its type (compose rejects a null `environment`).
YamlEnvPlace = EnvPlace


def entry_removal(source: SourceFile, start: int, end: int, siblings: int, empty: str) -> tuple[Span, str] | None:
    """How to remove one entry of a block collection (from `start`, its `-` or key, to `end`):
    its whole lines, or, for the only entry, everything after the parent key's colon."""
    text, index = source.text, source.index
    first = text.rfind("\n", 0, start) + 1
    if text[first:start].strip():
        return None
    stop = text.find("\n", end)
    stop = len(text) if stop == -1 else stop + 1
    if siblings == 1 and first > 0:
        previous = text[text.rfind("\n", 0, first - 1) + 1 : first - 1].rstrip("\r").rstrip()
        if previous.endswith(":"):
            colon = text.rfind(":", 0, first - 1)
            after = stop - 1 if stop > 0 and text[stop - 1 : stop] == "\n" else stop
            if after > 0 and text[after - 1 : after] == "\r":
                after -= 1
            return index.span(colon + 1, after), " " + empty
    return index.span(first, stop), ""


@record
class YamlHandle:
    """Where the words and variables of a YAML launch are written, for `render`."""

    tokens: list[Token]
    places: list[Place | None]
    token_indices: dict[str, tuple[int, ...]]
    env: dict[str, EnvPlace]
    # Adds words when the launch has no word container to add them to (None: cannot).
    append: Callable[[list[str]], Edit | None] | None = None


@record
class ScriptHandle:
    """A launch the shell interpreter found in a script held by one YAML scalar."""

    inner: Any
    style: str
    fixable: bool
    region: tuple[int, int] = (0, 0)  # source offsets of the script text
    escaped: bool = False  # the shell interpreter already escapes what it writes for the scalar


@record(unsafe_hash=True)
class Image:
    name: str
    vllm: bool
    hint: VersionHint | None
    release: Release | None


def _official(name: str) -> bool:
    """The vLLM project's image (any registry or mirror keeping its `vllm/vllm-openai` path, or
    the public ECR copy). Others' images named `vllm-openai` (`lmcache/vllm-openai:v0.3.9`)
    have their own version tags and entrypoints."""
    repository = re.split(r"@|:(?=[^/]*$)", name.strip().strip("'\""))[0]
    parts = repository.split("/")
    return len(parts) >= 2 and parts[-1] == "vllm-openai" and parts[-2] in ("vllm", "q9t5s3a7")


def image_of(name: str | None, span: Span | None) -> Image | None:
    if name is None:
        return None
    if HOLE in name or "{{" in name or "$" in name or not _official(name):
        return Image(name, False, None, None)
    release = release_from_image(name)
    hint = VersionHint((str(release),), f"image {name}", span) if release is not None else None
    return Image(name, is_vllm_image(name), hint, release)


def basename(word: str | None) -> str | None:
    return None if word is None else word.rsplit("/", 1)[-1]


@record(unsafe_hash=True)
class Launcher:
    kind: str  # "serve", "api_server", "dynamo", "script"
    position: int  # first word after the launcher (for "script": the script word)
    env: tuple[int, ...] = ()  # positions of `env NAME=VALUE` words
    job: bool = False  # `ray job submit ... --` (`programs.submits_a_job`)


def launcher(tokens: list[Token]) -> Launcher | None:
    """What the first words run."""
    texts = [token.text for token in tokens]
    i = 0
    env_words: list[int] = []
    if basename(texts[0] if texts else None) in _INITS:
        # `tini -- vllm serve`, `dumb-init vllm serve`: an init process in front.
        i = 1
        while i < len(texts) and texts[i] is not None and (texts[i] or "").startswith("-"):
            i += 1
            if texts[i - 1] == "--":
                break
    if basename(texts[i] if i < len(texts) else None) == "env":
        i += 1
        while i < len(texts) and texts[i] is not None and _ENV_ASSIGNMENT.match(texts[i] or ""):
            env_words.append(i)
            i += 1
    if i >= len(texts) or texts[i] is None:
        return None
    found = split_launcher(texts[i:])
    if found is not None:
        return Launcher(found[0], i + found[1], tuple(env_words), submits_a_job(texts[i:]))
    script = None if env_words else command_string_at(texts[i:])
    return None if script is None else Launcher("script", i + script)


def mentions_replay(tokens: list[Token]) -> bool:
    return any(token.text is not None and _REPLAY_FLAG.match(token.text) for token in tokens)


def shell_frontend() -> ModuleType | None:
    """The shell interpreter, when it is available (it embeds scripts held in YAML)."""
    try:
        from ...readers import shell
    except ImportError:
        return None
    return shell if hasattr(shell, "extract_script") else None


def container_context(
    kind: LaunchKind,
    env: Env,
    image: Image | None = None,
    label: str = "",
    open_reasons: Iterable[str] = (),
    load_config: ConfigLoader | None = None,
) -> LaunchContext:
    """Where a container's (or a config file's) command runs, as the YAML reader found it."""
    return LaunchContext(
        kind,
        env=env.settings,
        env_places=env.places,
        release=image.release if image else None,
        load_config=load_config,
        version_hint=image.hint if image else None,
        label=label,
        open_reasons=tuple(open_reasons),
        env_open=env.open,
    )


def build(
    context: LaunchContext, span: Span, words: Words, entrypoint: str, append: Callable[[list[str]], Edit | None] | None = None
) -> Launch | None:
    """A launch from the words after the launcher (None: a framework command that starts none);
    a framework's own launch renders itself."""
    launch = command_launch(context, span, words.tokens, token_elements(words.tokens), WordSyntax(str), entrypoint)
    from ...command import CommandHandle

    if launch is None or not isinstance(launch.handle, CommandHandle):
        return launch
    handle = YamlHandle(words.tokens, words.places, launch.handle.token_indices, dict(context.env_places), append)
    return replace(launch, handle=handle)


def built(launch: Launch | None) -> list[Launch]:
    return [] if launch is None else [launch]


def _with_env_words(context: LaunchContext, words: Words, positions: tuple[int, ...]) -> LaunchContext:
    """`env NAME=VALUE ... vllm serve` in an exec-form command."""
    if not positions:
        return context
    env, places = dict(context.env), dict(context.env_places)
    for position in positions:
        token = words.tokens[position]
        assert token.text is not None
        name, _, value = token.text.partition("=")
        env[name] = Setting(name, value, token.span, token.raw, token.span)
        places.pop(name, None)
    return replace(context, env=env, env_places=places)


def command(
    source: SourceFile,
    context: ExtractContext,
    launch_context: LaunchContext,
    span: Span,
    words: Words,
    script: Callable[[int], tuple[Text, str, bool] | None] | None = None,
    append: Callable[[list[str]], Edit | None] | None = None,
    dollars: bool = False,
) -> list[Launch]:
    """Launches from a whole command line (entrypoint words included).

    `script(position)` gives the text of word `position` for `sh -c` (with its scalar style
    and whether fixes can be written into it).
    """
    if not words.tokens:
        return []
    found = launcher(words.tokens)
    if found is None:
        return []
    if found.kind == "script":
        if script is None or found.position >= len(words.tokens):
            return []
        held = script(found.position)
        if held is None:
            return []
        text, style, fixable = held
        return script_launches(source, context, launch_context, text, style, fixable, dollars)
    rest = Words(words.tokens[found.position :], words.places[found.position :])
    launch_context = _with_env_words(launch_context, words, found.env)
    if found.job:  # the cluster's and the runtime env's, not the container's
        launch_context = replace(launch_context, env={}, env_places={}, env_open=True)
    return built(build(launch_context, span, rest, found.kind, append))


def script_launches(
    source: SourceFile,
    context: ExtractContext,
    launch_context: LaunchContext,
    text: Text,
    style: str,
    fixable: bool,
    dollars: bool = False,
) -> list[Launch]:
    """Launches of a script held by one YAML scalar (`dollars`: in a compose file, where `$`
    is written `$$`), run where `launch_context` says."""
    shell = shell_frontend()
    if shell is None or HOLE in text.value:
        return []
    extra: dict[str, Any] = {}
    escaped = False
    if (style in ('"', "'") or dollars) and "escape" in inspect.signature(shell.extract_script).parameters:
        quoting = _ESCAPE.get(style, lambda content: content)
        extra["escape"] = (lambda content: quoting(content.replace("$", "$$"))) if dollars else quoting
        escaped = True
    elif dollars:
        fixable = False
    launches = shell.extract_script(
        text.value,
        source,
        context,
        to_offset=text.offset,
        env=dict(launch_context.env),
        env_places=dict(launch_context.env_places),
        version_hint=launch_context.version_hint,
        kind=launch_context.kind,
        **extra,
    )
    region = (min(text.starts), max(text.ends)) if text.value else text.anchor
    return [
        replace(
            launch,
            handle=ScriptHandle(launch.handle, style, fixable and text.exact, region, escaped),
            env_open=launch.env_open or launch_context.env_open,
        )
        for launch in launches
    ]


_ESCAPE: dict[str, Callable[[str], str]] = {
    '"': lambda content: content.replace("\\", "\\\\").replace('"', '\\"'),
    "'": lambda content: content.replace("'", "''"),
}


def held_by(launch: Launch, places: list[tuple[int, int, tuple[str, ...]]]) -> tuple[str, ...]:
    """The names of the place (start, end, names) whose text holds the launch: the hosts that
    reach a server a compose service or a Kubernetes workload starts."""
    return next((names for start, end, names in places if start <= launch.span.start < end), launch.hosts)


def json_launches(
    source: SourceFile, context: ExtractContext, readers: Iterable[Callable[[SourceFile, ExtractContext, Node], list[Launch]]]
) -> list[Launch]:
    """Launches `readers` find in a JSON file (an ECS task definition, a Nomad job): JSON is YAML,
    composed with every node's position as the YAML frontend composes it (a file YAML does not
    read yields nothing)."""
    try:
        documents = compose_all(source.text)
    except ComposeError:
        return []
    try:
        return [launch for document in documents for read in readers for launch in read(source, context, document)]
    finally:
        forget_walks()

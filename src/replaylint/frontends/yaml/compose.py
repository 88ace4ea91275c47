"""docker-compose files: services with `image`, `entrypoint`, `command` and `environment`.

A compose file is any document with a top-level `services` mapping whose entries have
`image`, `command`, `entrypoint` or `build` (so `compose.yaml`, `docker-compose.*.yml` and
differently named files alike).

- `command` and `entrypoint` are a list (one word per item) or a string, which compose splits
  into words like a shell would (quotes, backslashes) without running one.
- `entrypoint` replaces the image's; `command` replaces its CMD. With neither `entrypoint`
  nor a recognisable command, the `vllm/vllm-openai` image runs `vllm serve` + `command`; a
  SageMaker vLLM image with neither runs its entrypoint on the `SM_VLLM_*` variables;
  another image's entrypoint is unknown (its command counts only when it names the replay
  switch, open-ended).
- Interpolation: compose fills `${VAR}`, `${VAR:-default}`, `$VAR` from the shell and the
  `.env` file before anything else. We do not see the shell (it wins over `.env`, and a
  default applies only when the variable is unset), so a reference is unknown, unless the
  `.env` file beside the compose file sets the variable: a plain `${VAR}`/`$VAR` in `command`
  or `entrypoint` is then the value `docker compose up` run as written uses, what rests on it
  says so ("when the shell running compose does not set VAR"), and a word that is the variable
  alone is reported at its `.env` line (as a make `?=` default is). `$$` is a literal `$`. A published port (`ports: ["${PORT:-8000}:8000"]`) is the one place a default is
  taken, with its condition ("`PORT` is unset"), unless `.env` sets the variable: it decides only
  whether a client on the host's `localhost` reaches the service (`run/cross_file`).
- `environment` as a map (`KEY: value`; a key without value comes from the shell: unknown)
  or a list (`- KEY=value`; `- KEY` alone: unknown), over the files of `env_file` (read next
  to the compose file, `env_files`; one that cannot be read opens the environment, as
  `extends` does).
"""

from __future__ import annotations

import os
import re
from dataclasses import replace

from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from ...edits import Sequence, remove
from ...frameworks import sagemaker
from ...model import UNKNOWN, Assumption, Launch, LaunchKind, Setting
from ...readers.yaml_nodes import HOLE, STR, content_end, dash_of, entries, get, items, mapping, span
from ...readers.yaml_scalars import compose_interpolate, escape_in_scalar, scalar
from ...readers.yaml_text import Text, scalar_text
from ...readers.yaml_words import Words, item_tokens, sequence_words, split, string_words
from ...served import publishes_itself
from ...source import ExtractContext, SourceFile
from .container_launch import (
    Env,
    YamlEnvPlace,
    build,
    built,
    command as command_launches,
    container_context,
    entry_removal,
    held_by,
    image_of,
    launcher,
    mentions_replay,
)
from .env_files import read as read_env_files

_SERVICE_KEYS = ("image", "command", "entrypoint", "build")
_REFERENCE = re.compile(r"(?<!\$)\$(?:\{(?P<braced>[A-Za-z_]\w*)\}|(?P<bare>[A-Za-z_]\w*))")


def is_compose(document: Node) -> bool:
    services = get(document, "services")
    if not isinstance(services, MappingNode):
        return False
    return any(
        isinstance(service, MappingNode) and any(key in mapping(service) for key in _SERVICE_KEYS) for _, service in entries(services)
    )


def _null(node: Node | None) -> bool:
    return node is None or (isinstance(node, ScalarNode) and node.tag.endswith(":null"))


def environment(source: SourceFile, context: ExtractContext, node: Node | None, env_file: Node | None) -> Env:
    env = Env()
    if not _null(env_file):
        from_files, env.open = read_env_files(source, context, env_file)
        for setting in from_files.values():
            env.set(setting, None)  # no fixes are written into another file
    if _null(node):
        return env
    text = source.text
    index = source.index
    if isinstance(node, MappingNode):
        for key, value_node in entries(node):
            name = key.value
            end = content_end(text, value_node)
            if _null(value_node):
                value: object = UNKNOWN  # taken from the shell running compose
                shown = name
            elif isinstance(value_node, ScalarNode):
                expanded = compose_interpolate(scalar_text(text, value_node))
                value = UNKNOWN if HOLE in expanded.value else expanded.value
                shown = text[key.start_mark.index : end]
            else:
                env.open = True
                continue
            found = (
                None
                if node.flow_style
                else _without_emptied_key(source, entry_removal(source, key.start_mark.index, end, len(node.value), "{}"))
            )
            value_span = span(index, value_node) if isinstance(value_node, ScalarNode) and not _null(value_node) else None
            style = (value_node.style or "") if isinstance(value_node, ScalarNode) else ""
            place = None
            if found is not None:
                place = YamlEnvPlace(found[0], value_span, lambda v, style=style: scalar(v.replace("$", "$$"), style, False), found[1])
            env.set(
                Setting(name, value, index.span(key.start_mark.index, max(end, key.end_mark.index)), " ".join(shown.split()), value_span),
                place,
            )
        return env
    if not isinstance(node, SequenceNode):
        env.open = True
        return env
    bounds = tuple((i.start_mark.index, content_end(text, i)) for i in node.value)
    for position, item in enumerate(node.value):
        if not isinstance(item, ScalarNode) or item.tag != STR:
            env.open = True
            continue
        raw = scalar_text(text, item)
        name, eq, _ = raw.value.partition("=")
        item_span = span(index, item)
        if not eq:
            env.set(Setting(name, UNKNOWN, item_span, raw.value, None), None)
            continue
        value_text = compose_interpolate(raw.slice(len(name) + 1, len(raw)))
        value = UNKNOWN if HOLE in value_text.value else value_text.value
        value_span = None
        if raw.exact:
            a, b = raw.region(len(name) + 1, len(raw))
            value_span = index.span(a, b)
        found: tuple | None
        if node.flow_style:
            found = (remove(index, Sequence(bounds, node.end_mark.index - 1, ","), {position})[0].span, "")
        else:
            dash = dash_of(text, item)
            found = (
                _without_emptied_key(source, entry_removal(source, dash, item_span.end, len(node.value), "[]"))
                if dash is not None
                else None
            )
        style = item.style or ""
        place = None
        if found is not None:
            place = YamlEnvPlace(found[0], value_span, lambda v, style=style: escape_in_scalar(v.replace("$", "$$"), style), found[1])
        env.set(Setting(name, value, item_span, raw.value, value_span), place)
    return env


def _without_emptied_key(source: SourceFile, found: tuple | None) -> tuple | None:
    """The removal of an `environment` entry, and of the `environment:` key too when the entry
    was its only one (compose needs no `environment: {}`). `entry_removal` replaces an only
    entry by ` {}` after the key's colon; the key's whole line goes instead, with the entry's."""
    if found is None or not found[1]:
        return found
    text, removal = source.text, found[0]
    colon = removal.start - 1
    line_start = text.rfind("\n", 0, colon) + 1
    if text[line_start:colon].strip() != "environment":
        return found
    end = removal.end + (2 if text.startswith("\r\n", removal.end) else 1 if text.startswith("\n", removal.end) else 0)
    return source.index.span(line_start, end), ""


def _words(source: SourceFile, node: Node | None, dotenv: _DotEnv) -> tuple[Words, list[tuple[Text, str, bool]]] | None:
    """Words of `command`/`entrypoint`, and per word the text a shell would get as a script."""
    index = source.index
    known = dotenv.values() if node is not None and "$" in source.text[node.start_mark.index : node.end_mark.index] else None

    def interpolate(text: Text) -> Text:
        return compose_interpolate(text, known=known)

    if isinstance(node, SequenceNode):
        found = sequence_words(index, node, interpolate)
        if found is None:
            return None
        texts, container = found
        scripts = [
            (compose_interpolate(scalar_text(source.text, item), keep_unknown=True), item.style or "", True)
            if isinstance(item, ScalarNode)
            else (Text.filled(HOLE, item.start_mark.index, item.end_mark.index), "", False)
            for item in node.value
        ]
        container.dollars = True
        return item_tokens(index, node, texts, container), scripts
    if isinstance(node, ScalarNode) and node.tag == STR:
        raw = scalar_text(source.text, node)
        found = string_words(index, node, interpolate(raw))
        if found is None:
            return None
        words, container = found
        container.dollars = True
        # What a shell would get as the script of `sh -c "..."`: the word with its quotes
        # removed, references kept. Fixes are not written into such nested quoting.
        pieces = split(compose_interpolate(raw, keep_unknown=True)) or []
        if len(pieces) == len(words):
            scripts = [(piece.text, "", False) for piece in pieces]
        else:
            scripts = [(Text.filled(HOLE, 0, 0), "", False)] * len(words)
        return words, scripts
    return None


def extract(source: SourceFile, context: ExtractContext, document: Node) -> list[Launch]:
    launches = _launches(source, context, document)
    services = [
        (key.start_mark.index, content_end(source.text, service), key, service) for key, service in entries(get(document, "services"))
    ]
    names = [(start, end, _names(key, service)) for start, end, key, service in services]
    dotenv = _DotEnv(source, context)
    placed = []
    for launch in launches:
        local, condition = _reached_locally(launch, services, dotenv)
        placed.append(replace(launch, hosts=held_by(launch, names), local=local, local_condition=condition))
    return placed


class _DotEnv:
    """The variables the `.env` file beside the compose file sets (compose interpolates from it
    where the shell sets nothing), read when a command or a published port first asks."""

    def __init__(self, source: SourceFile, context: ExtractContext) -> None:
        self._source = source
        self._context = context
        self._settings: dict[str, Setting] | None = None

    @property
    def settings(self) -> dict[str, Setting]:
        if self._settings is None:
            from ...readers.env_file import parse

            path = os.path.join(os.path.dirname(self._source.path), ".env")
            text = self._context.read_text(path)
            self._settings = parse(path, text) if text is not None else {}
        return self._settings

    def sets(self, name: str) -> bool:
        return name in self.settings

    def values(self) -> dict[str, str]:
        """The plain values, which `docker compose up` run as written interpolates."""
        return {name: setting.value for name, setting in self.settings.items() if isinstance(setting.value, str)}


def _from_dotenv(words: Words, dotenv: _DotEnv) -> tuple[Words, tuple[Assumption, ...]]:
    """The words whose values `.env` gives: a word that is one variable alone is written at its
    `.env` value (`written`), and what rests on a value says so: the shell may set it instead."""
    assumptions: list[Assumption] = []
    tokens = []
    for token in words.tokens:
        for match in _REFERENCE.finditer(token.raw):
            setting = dotenv.settings.get(match["braced"] or match["bare"])
            if setting is None or not isinstance(setting.value, str) or setting.value_span is None:
                continue
            place = f"{os.path.basename(setting.span.path)}:{setting.span.start_line}"
            condition = f"the shell running compose does not set {setting.name}, so {place}'s `{setting.spelling}` holds"
            assumptions += [Assumption(condition, token.span), Assumption(condition, setting.value_span), Assumption(condition)]
            if match.span() == (0, len(token.raw)) and token.text == setting.value:
                token = replace(token, written=setting.value_span)
        tokens.append(token)
    return Words(tokens, words.places), tuple(dict.fromkeys(assumptions))


def _reached_locally(launch: Launch, services: list[tuple[int, int, Node, Node]], dotenv: _DotEnv) -> tuple[bool, str]:
    """Whether a client on the host reaches the service's replay server at `localhost:PORT`, and on
    which default that rests: only through `ports: ["PORT:PORT"]` (`${HOST_PORT:-PORT}:PORT` when
    `HOST_PORT` is unset) or `network_mode: host`, not when the port is published on no port of the
    host, on another one (`"9000:8000"`, `"8000"`: an ephemeral one) or on one the environment
    chooses (`${HOST_PORT}:8000`)."""
    from ...vllm.unusable_masks import server_port

    service = next((service for start, end, _, service in services if start <= launch.span.start < end), None)
    port = server_port(launch) if isinstance(service, MappingNode) else None
    if port is None:
        return True, ""
    network = get(service, "network_mode")
    if isinstance(network, ScalarNode) and network.value == "host":
        return True, ""
    published = [_published(item, port, dotenv) for item in items(get(service, "ports"))]
    unconditional = [found for found in published if found is None or found[0] and not found[1]]
    if unconditional:
        return True, ""
    conditions = [found[1] for found in published if found is not None and found[0]]
    return bool(conditions), conditions[0] if conditions else ""


# `${NAME:-default}` and `${NAME-default}`: the default when NAME is unset (`:-`: or empty).
_DEFAULTED = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*):?-([^}$]*)\}")


def _published(item: Node, port: int, dotenv: _DotEnv) -> tuple[bool, str] | None:
    """Whether a `ports:` entry publishes the container's `port` on the same port of the host, and
    the default that rests on ("`HOST_PORT` is unset"); None: a form not read. A variable without a
    default (or one the `.env` file sets) publishes on a port not known here: not the same."""
    if isinstance(item, MappingNode):
        target, published = get(item, "target"), get(item, "published")
        if not isinstance(target, ScalarNode) or not isinstance(published, (ScalarNode, type(None))):
            return None
        if published is None:
            return False, ""  # an ephemeral port of the host
        text = f"{published.value}:{target.value}"
    elif isinstance(item, ScalarNode):
        text = str(item.value)
    else:
        return None
    names = tuple(dict.fromkeys(match.group(1) for match in _DEFAULTED.finditer(text)))
    text = _DEFAULTED.sub(lambda match: match.group(2), text)
    if "$" in text or any(dotenv.sets(name) for name in names):
        return False, ""
    same = publishes_itself(text, port)
    return same, " and ".join(f"`{name}` is unset" for name in names) if same else ""


def _names(key: Node, service: Node) -> tuple[str, ...]:
    """What the other services of the project reach a service by: its key, its `hostname:`
    and its `container_name:` (Docker's network resolves all three)."""
    named = (get(service, "hostname"), get(service, "container_name")) if isinstance(service, MappingNode) else ()
    return (str(key.value), *(node.value for node in named if isinstance(node, ScalarNode) and node.tag == STR and node.value))


def _launches(source: SourceFile, context: ExtractContext, document: Node) -> list[Launch]:
    found: list[Launch] = []
    dotenv = _DotEnv(source, context)
    for key, service in entries(get(document, "services")):
        if isinstance(service, MappingNode):
            found += _service_launches(source, context, key, service, dotenv)
    return found


def _service_launches(source: SourceFile, context: ExtractContext, key: Node, service: MappingNode, dotenv: _DotEnv) -> list[Launch]:
    index = source.index
    label = f"service {key.value}"
    image_node = get(service, "image")
    image_name = None
    if isinstance(image_node, ScalarNode) and image_node.tag == STR:
        expanded = compose_interpolate(scalar_text(source.text, image_node))
        image_name = expanded.value
    image = image_of(image_name, span(index, image_node) if image_node is not None else None)
    if get(service, "build") is not None and image_node is None:
        image = None
    env = environment(source, context, get(service, "environment"), get(service, "env_file"))
    reasons: list[str] = []
    if get(service, "extends") is not None:
        env.open = True
        if _null(get(service, "command")):
            reasons.append("the service extends another one")
    entry_node = get(service, "entrypoint")
    command_node = get(service, "command")
    entry = None if _null(entry_node) else _words(source, entry_node, dotenv)
    command = None if _null(command_node) else _words(source, command_node, dotenv)
    if (entry is None and not _null(entry_node)) or (command is None and not _null(command_node)):
        return []
    words = Words()
    scripts: list[tuple[Text, str, bool]] = []
    for part in (entry, command):
        if part is not None:
            words.extend(part[0])
            scripts.extend(part[1])
    words, assumed = _from_dotenv(words, dotenv) if "$" in "".join(token.raw for token in words.tokens) else (words, ())
    launch_span = span(index, service, key)

    def script(position: int) -> tuple[Text, str, bool] | None:
        return scripts[position] if position < len(scripts) else None

    launches: list[Launch] = []
    if _null(entry_node) and image is not None and image.vllm:
        launches = built(build(container_context(LaunchKind.COMPOSE, env, image, label, reasons), launch_span, words, "serve"))
    elif _null(entry_node) and _null(command_node) and sagemaker.is_sagemaker_image(image_name):
        hint = sagemaker.image_hint(image_name or "", span(index, image_node))
        opened = ("an environment that cannot be read",) if env.open else ()
        launches = built(sagemaker.launch(env.settings, sagemaker.BOOLEAN, launch_span, label, hint, opened))
    else:
        where = container_context(LaunchKind.COMPOSE, env, image, label, reasons)
        launches = command_launches(source, context, where, launch_span, words, script=script, dollars=True)
        if not launches and _null(entry_node) and launcher(words.tokens) is None and mentions_replay(words.tokens):
            name = image_name if image is not None else "built here"
            reasons.append(f"the entrypoint of image {name} is not known")
            launches = built(build(container_context(LaunchKind.COMPOSE, env, image, label, reasons), launch_span, words, "serve"))
    return [replace(launch, assumptions=(*launch.assumptions, *assumed)) for launch in launches] if assumed else list(launches)

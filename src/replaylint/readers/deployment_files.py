"""The environments the files that deploy an image of the tree start it with
(`readers.deployed_env` finds the files and the image): an Azure ML online deployment's
`environment_variables`, and the `environment` of each docker-compose service that runs the
image.

A compose service runs the script when it builds the script's folder (`build: ./docker`, or
`build: {context: ./docker, dockerfile: ...}` whose Dockerfile runs the script too) or names
the `image:` such a service tags, unless it sets `entrypoint:` (which drops the image's CMD
too) or, for a script the image runs as its CMD, `command:`. Its `environment` is read as
compose reads it: a map (`KEY: value`; no value: from the shell) or a list (`- KEY=value`;
`- KEY` alone: from the shell); `${VAR}` comes from the shell or `.env` (unknown), `$$` is `$`.
An `env_file`, an `extends`, a build `target`, `dockerfile_inline` or `$` in the build's paths,
or a service of the same name in another file (`docker-compose.override.yml`, which `docker
compose` merges in, or a second `-f` file) leaves the environment open.
"""

from __future__ import annotations

import os
import re

from yaml.nodes import Node, ScalarNode

from ..model import UNKNOWN, LineIndex, Setting, Span
from ..records import record
from ..source import ExtractContext
from .dockerfile_entry import image_runs
from .yaml_nodes import STR, ComposeError, compose_all, entries, get, get_str, items, span
from .yaml_scalars import compose_interpolate
from .yaml_text import Text, scalar_text

_OPEN_BUILD = "?"  # a service that builds the folder in a way not read here: it may run the script
_DECIMAL = re.compile(r"0|[1-9][0-9]*")  # an integer whose text compose sends as written


def deployment_env(path: str, text: str, folder: str) -> dict[str, Setting] | None:
    """The `environment_variables` of an Azure ML deployment whose image is built from `folder`."""
    document = _document(text)
    build = get(document, "environment", "build")
    build_path = get_str(build, "path")
    if build_path is None or not _same(os.path.join(os.path.dirname(path), build_path), folder):
        return None
    if (get_str(build, "dockerfile_path") or "Dockerfile") != "Dockerfile":
        return None
    index = LineIndex(path, text)
    env: dict[str, Setting] = {}
    for key, node in entries(get(document, "environment_variables")):
        value = getattr(node, "value", None)
        # a string, or a decimal integer (the text the CLI sends); a boolean's or a float's text is not known
        known = isinstance(value, str) and (node.tag == STR or (node.tag.endswith(":int") and value.isdigit())) and "${{" not in value
        env[key.value] = _setting(key.value, value if known else UNKNOWN, span(index, node, key), span(index, node) if known else None)
    return env


def compose_envs(
    files: list[tuple[str, str]], folder: str, name: str, run_as: str, context: ExtractContext
) -> list[dict[str, Setting]] | None:
    """The environments of the services of the compose files (path, text) that run the script
    (None: one of them is open)."""
    services = [
        _Service(path, text, key.value, service)
        for path, text in files
        for key, service in entries(get(_document(text), "services"))
        if service.id == "mapping"
    ]
    runners = _runners(services, folder, name, run_as, context)
    if not runners:
        return []
    if any(runs == _OPEN_BUILD for _, runs in runners) or any(get(service.node, "extends") for service in services):
        return None
    if any(other.name == runner.name and other.path != runner.path for runner, _ in runners for other in services):
        return None  # another file (an override compose merges in, a second `-f`) may change the service
    found = []
    for service, runs in runners:
        if not _null(get(service.node, "entrypoint")) or (runs == "CMD" and not _null(get(service.node, "command"))):
            continue  # the service runs another program
        env = None if not _null(get(service.node, "env_file")) else _environment(service, get(service.node, "environment"))
        if env is None:
            return None
        found.append(env)
    return found


def _runners(services: list[_Service], folder: str, name: str, run_as: str, context: ExtractContext) -> list[tuple[_Service, str]]:
    """The services that build the script's image, and those that run the tag one gives it, each
    with how the image runs the script (`_build_runs`)."""
    runners = [
        (service, runs)
        for service in services
        if get(service.node, "build") and (runs := _build_runs(service, folder, name, run_as, context))
    ]
    tagged = {image: runs for service, runs in runners if (image := get_str(service.node, "image"))}
    return runners + [
        (service, tagged[image])
        for service in services
        if not get(service.node, "build") and (image := get_str(service.node, "image")) in tagged
    ]


@record
class _Service:
    """A compose service: its file, its text, its name and its mapping."""

    path: str
    text: str
    name: str
    node: Node


def _build_runs(service: _Service, folder: str, name: str, run_as: str, context: ExtractContext) -> str | None:
    """How the image a service builds runs the script: `ENTRYPOINT` or `CMD`, `_OPEN_BUILD`, or
    None (it builds another folder, or its Dockerfile does not run the script)."""
    build = get(service.node, "build")
    if isinstance(build, ScalarNode):
        build_context, dockerfile = (build.value if build.tag == STR else None), "Dockerfile"
    else:
        build_context, dockerfile = get_str(build, "context") or ".", get_str(build, "dockerfile") or "Dockerfile"
    if build_context is None:
        return None
    if "$" in build_context + dockerfile:
        return _OPEN_BUILD  # a path from the shell or `.env`
    if not _same(os.path.join(os.path.dirname(service.path), build_context), folder):
        return None
    if get(build, "target") or get(build, "dockerfile_inline"):
        return _OPEN_BUILD
    if os.path.normpath(dockerfile) == "Dockerfile":
        return run_as
    return image_runs(os.path.join(folder, dockerfile), name, context)


def _environment(service: _Service, node: Node | None) -> dict[str, Setting] | None:
    """A service's `environment` (None: not a map or list of plain entries)."""
    env: dict[str, Setting] = {}
    if _null(node):
        return env
    text, index = service.text, LineIndex(service.path, service.text)
    if node.id == "mapping":
        for key, value in entries(node):
            if not isinstance(value, ScalarNode):
                return None
            known = _map_value(text, value)
            whole = span(index, key) if _null(value) else span(index, value, key)
            env[key.value] = _setting(key.value, known, whole, span(index, value) if known is not UNKNOWN else None)
        return env
    if node.id != "sequence":
        return None
    for item in items(node):
        if not isinstance(item, ScalarNode) or item.tag != STR:
            return None
        raw = scalar_text(text, item)
        variable, equals, _ = raw.value.partition("=")
        value = raw.slice(len(variable) + 1, len(raw))
        known = _known(compose_interpolate(value)) if equals and not re.search("[\"']", value.value) else UNKNOWN
        value_span = index.span(*value.region(0, len(value))) if known is not UNKNOWN and raw.exact else None
        env[variable] = _setting(variable, known, span(index, item), value_span)
    return env


def _map_value(text: str, node: ScalarNode) -> object:
    if node.tag == STR:
        return _known(compose_interpolate(scalar_text(text, node)))
    return node.value if node.tag.endswith(":int") and _DECIMAL.fullmatch(node.value) else UNKNOWN  # a boolean's text is not known


def _known(value: Text) -> object:
    return value.value if value.known else UNKNOWN  # a variable from the shell or `.env` is not known


def _setting(name: str, value: object, whole: Span, value_span: Span | None) -> Setting:
    return Setting(name, value, whole, f"{name}={value if value is not UNKNOWN else '<unknown>'}", value_span)


def _document(text: str) -> Node | None:
    try:
        documents = compose_all(text)
    except ComposeError:
        return None
    return documents[0] if len(documents) == 1 else None


def _null(node: Node | None) -> bool:
    return node is None or (isinstance(node, ScalarNode) and node.tag.endswith(":null"))


def _same(path: str, folder: str) -> bool:
    return os.path.normpath(path) == os.path.normpath(folder)

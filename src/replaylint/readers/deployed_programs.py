"""The Python programs a deployment file runs, each with what its environment gives one variable: the
services of a docker-compose file (`command: python -m gen.main`, as a string or a list; their
`environment`, a map or a list of `NAME=value`), and the containers of Kubernetes workloads (a Pod,
or the pod template of a Deployment, StatefulSet, DaemonSet, Job or CronJob: `command` then `args`;
`env`, a list of `name`/`value`). A value compose would substitute (`${URL}`), one from `valueFrom`,
a variable not set there (the image's `ENV`, an `env_file`, `envFrom`), or a compose service with an
`entrypoint` of its own (the command is then its arguments), leave the value unknown. A value known
is placed on its entry."""

from __future__ import annotations

import shlex

from yaml.nodes import Node

from ..source import SourceFile
from .python_runs import ProgramRun, is_python, program_target
from .yaml_nodes import ComposeError, compose_all, construct, get, get_str, items, mapping

_WORKLOADS = ("Deployment", "StatefulSet", "DaemonSet", "Job", "CronJob", "ReplicaSet")


def deployed_program_runs(source: SourceFile, name: str) -> list[ProgramRun] | None:
    """The runs of the compose services and Kubernetes containers of `source`; None for a file that
    names `name` in a document of another kind (a CI workflow, an Argo template, Helm values): it
    may run any program with it."""
    try:
        documents = compose_all(source.text)
    except ComposeError:
        return None
    found = []
    for document in documents:
        read = get(document, "services") is not None or get_str(document, "kind") in ("Pod", *_WORKLOADS)
        if not read and name in source.text[document.start_mark.index : document.end_mark.index]:
            return None
        for _, service in mapping(get(document, "services")).values():
            found.append(_service_run(source, service, name))
        found += [_container_run(source, container, name) for container in _containers(document)]
    return [run for run in found if run is not None]


def _service_run(source: SourceFile, service, name: str) -> ProgramRun | None:
    command = get(service, "command")
    words = _words(construct(command)) if command is not None and get(service, "entrypoint") is None else None
    target = _python_target(words) if words is not None else None
    if target is None:
        return None
    module, path = target
    return _run(source, module, path, _environment_entry(get(service, "environment"), name))


def _containers(document) -> list:
    spec = get(document, "spec")
    kind = get_str(document, "kind")
    if kind == "CronJob":
        spec = get(spec, "jobTemplate", "spec")
    pod = spec if kind == "Pod" else get(spec, "template", "spec") if kind in _WORKLOADS else None
    return [*items(get(pod, "initContainers")), *items(get(pod, "containers"))]


def _container_run(source: SourceFile, container, name: str) -> ProgramRun | None:
    command = get(container, "command")
    target = _python_target([*_listed(command), *_listed(get(container, "args"))]) if command is not None else None
    if target is None:
        return None
    module, path = target
    return _run(source, module, path, _env_entry(get(container, "env"), name))


def _listed(node) -> list:
    value = construct(node) if node is not None else []
    return value if isinstance(value, list) else [None]


def _env_entry(env, name: str) -> tuple[object, Node | None]:
    """A container's `env` entry `name`'s `value` and its node (Kubernetes expands `$(OTHER)` in it)."""
    entries = [item for item in items(env) if get_str(item, "name") == name]
    node = get(entries[0], "value") if len(entries) == 1 and get(entries[0], "valueFrom") is None else None
    value = construct(node) if node is not None else None
    return (value, node) if isinstance(value, str) and "$(" not in value else (None, None)


def _run(source: SourceFile, module: str | None, path: str | None, entry: tuple[object, Node | None]) -> ProgramRun:
    value, node = entry
    if not isinstance(value, str) or node is None:
        return ProgramRun(module, path, None)
    return ProgramRun(module, path, value, source.index.span(node.start_mark.index, node.end_mark.index))


def _python_target(words: list) -> tuple[str | None, str | None] | None:
    if not words or not isinstance(words[0], str) or not is_python(words[0]):
        return None
    target = program_target([word if isinstance(word, str) and "$" not in word else None for word in words[1:]])
    return target[:2] if target is not None else None


def _words(command: object) -> list | None:
    if isinstance(command, list):
        return command
    try:
        return shlex.split(command) if isinstance(command, str) else None
    except ValueError:
        return None


def _environment_entry(environment, name: str) -> tuple[object, Node | None]:
    """A compose service's `environment` value of `name` (a map's, or a list's `NAME=value`) and its node."""
    node = get(environment, name)
    value = construct(node) if node is not None else None
    for item in items(environment):
        text = construct(item)
        if isinstance(text, str) and text.partition("=")[0] == name and text.partition("=")[1]:
            node, value = item, text.partition("=")[2]  # the last entry wins, as in the mapping compose builds
    return (value, node) if isinstance(value, str) and "$" not in value else (None, None)

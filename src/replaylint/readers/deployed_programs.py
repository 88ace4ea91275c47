"""The Python programs a deployment file runs, each with what its environment gives one variable: the
services of a docker-compose file (`command: python -m gen.main`, as a string or a list; their
`environment`, a map or a list of `NAME=value`), and the containers of Kubernetes workloads (a Pod,
or the pod template of a Deployment, StatefulSet, DaemonSet, Job or CronJob: `command` then `args`;
`env`, a list of `name`/`value`). A value compose would substitute (`${URL}`), one from `valueFrom`,
a variable not set there (the image's `ENV`, an `env_file`, `envFrom`), or a compose service with an
`entrypoint` of its own (the command is then its arguments), leave the value unknown."""

from __future__ import annotations

import shlex

from .python_runs import ProgramRun, is_python, program_target
from .yaml_nodes import ComposeError, compose_all, construct, get, get_str, items, mapping

_WORKLOADS = ("Deployment", "StatefulSet", "DaemonSet", "Job", "CronJob", "ReplicaSet")


def deployed_program_runs(text: str, name: str) -> list[ProgramRun]:
    try:
        documents = compose_all(text)
    except ComposeError:
        return []
    found = []
    for document in documents:
        for _, service in mapping(get(document, "services")).values():
            found.append(_service_run(service, name))
        found += [_container_run(container, name) for container in _containers(document)]
    return [run for run in found if run is not None]


def _service_run(service, name: str) -> ProgramRun | None:
    command = get(service, "command")
    words = _words(construct(command)) if command is not None and get(service, "entrypoint") is None else None
    target = _python_target(words) if words is not None else None
    if target is None:
        return None
    module, path = target
    return ProgramRun(module, path, _value(get(service, "environment"), name), command.start_mark.index)  # type: ignore[union-attr]


def _containers(document) -> list:
    spec = get(document, "spec")
    kind = get_str(document, "kind")
    if kind == "CronJob":
        spec = get(spec, "jobTemplate", "spec")
    pod = spec if kind == "Pod" else get(spec, "template", "spec") if kind in _WORKLOADS else None
    return [*items(get(pod, "initContainers")), *items(get(pod, "containers"))]


def _container_run(container, name: str) -> ProgramRun | None:
    command = get(container, "command")
    target = _python_target([*_listed(command), *_listed(get(container, "args"))]) if command is not None else None
    if target is None:
        return None
    module, path = target
    return ProgramRun(module, path, _env_value(get(container, "env"), name), command.start_mark.index)  # type: ignore[union-attr]


def _listed(node) -> list:
    value = construct(node) if node is not None else []
    return value if isinstance(value, list) else [None]


def _env_value(env, name: str) -> str | None:
    """A container's `env` entry `name`'s `value` (Kubernetes expands `$(OTHER)` in it)."""
    values = construct(env) if env is not None else []
    entries = [item for item in values if isinstance(item, dict) and item.get("name") == name] if isinstance(values, list) else []
    value = entries[0].get("value") if len(entries) == 1 and "valueFrom" not in entries[0] else None
    return value if isinstance(value, str) and "$(" not in value else None


def _python_target(words: list) -> tuple[str | None, str | None] | None:
    if not words or not isinstance(words[0], str) or not is_python(words[0]):
        return None
    return program_target([word if isinstance(word, str) and "$" not in word else None for word in words[1:]])


def _words(command: object) -> list | None:
    if isinstance(command, list):
        return command
    try:
        return shlex.split(command) if isinstance(command, str) else None
    except ValueError:
        return None


def _value(environment, name: str) -> str | None:
    values = construct(environment) if environment is not None else None
    if isinstance(values, list):
        pairs = [item.partition("=") for item in values if isinstance(item, str)]
        values = {key: value for key, equals, value in pairs if equals}
    value = values.get(name) if isinstance(values, dict) else None
    return value if isinstance(value, str) and "$" not in value else None

"""The commands a YAML or Dockerfile launch file starts, read with PyYAML and dockerfile-parse.

Each reader returns `Command`s: an argv (run through the sandbox's shims, so `sh -c '...'`
strings are run by real bash) or a script for bash, with the environment the container or step
gets. Nothing here uses replaylint.
"""

from __future__ import annotations

import io
import json
import shlex
from dataclasses import dataclass, field

import yaml
from dockerfile_parse import DockerfileParser

from .launches import image_entrypoint


@dataclass
class Command:
    argv: list[str] | None = None
    script: str | None = None
    env: dict[str, str] = field(default_factory=dict)
    where: str = ""
    open_reason: str = ""


# -- YAML --------------------------------------------------------------------------------------


def yaml_commands(text: str, frontend: str) -> list[Command]:
    documents = [doc for doc in yaml.safe_load_all(text) if doc is not None]
    if frontend == "github-actions":
        return [command for doc in documents if isinstance(doc, dict) for command in _workflow(doc)]
    if frontend == "compose":
        return [command for doc in documents if isinstance(doc, dict) for command in _compose(doc)]
    return [command for doc in documents for command in _containers(doc, "")]


def _env_map(value) -> dict[str, str]:
    if isinstance(value, dict):
        return {str(k): _scalar(v) for k, v in value.items() if v is not None and not isinstance(v, (dict, list))}
    env = {}
    if isinstance(value, list):
        for item in value:
            if isinstance(item, dict) and "name" in item and "value" in item and not isinstance(item["value"], (dict, list)):
                env[str(item["name"])] = _scalar(item["value"])
            elif isinstance(item, str) and "=" in item:
                key, _, val = item.partition("=")
                env[key] = val
    return env


def _scalar(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _workflow(doc: dict) -> list[Command]:
    commands = []
    top = _env_map(doc.get("env"))
    for job_name, job in (doc.get("jobs") or {}).items():
        if not isinstance(job, dict):
            continue
        job_env = {**top, **_env_map(job.get("env"))}
        for number, step in enumerate(job.get("steps") or [], start=1):
            if isinstance(step, dict) and isinstance(step.get("run"), str):
                env = {**job_env, **_env_map(step.get("env"))}
                commands.append(Command(script=step["run"], env=env, where=f"jobs.{job_name}.steps[{number}]"))
    return commands


def _words(value) -> list[str] | None:
    if value is None:
        return None
    if isinstance(value, str):
        return shlex.split(value)
    if isinstance(value, list):
        return [_scalar(item) for item in value]
    return None


def _compose(doc: dict) -> list[Command]:
    commands = []
    for name, service in (doc.get("services") or {}).items():
        if not isinstance(service, dict):
            continue
        entry = _words(service.get("entrypoint")) or image_entrypoint(service.get("image"))
        cmd = _words(service.get("command")) or []
        if entry is None and cmd:
            entry, cmd = cmd, []
        if entry:
            commands.append(Command(argv=[*entry, *cmd], env=_env_map(service.get("environment")), where=f"services.{name}"))
    return commands


def _containers(node, where: str) -> list[Command]:
    """Every mapping with `command`/`args` (Kubernetes containers, Helm values' image blocks,
    Dynamo graph services), anywhere in the document."""
    found = []
    if isinstance(node, dict):
        command, args = node.get("command"), node.get("args")
        if isinstance(command, (list, str)) or isinstance(args, list):
            image = node.get("image") if isinstance(node.get("image"), str) else node.get("repository")
            entry = _words(command) if isinstance(command, list) else (shlex.split(command) if isinstance(command, str) else None)
            entry = entry or image_entrypoint(image if isinstance(image, str) else None)
            if entry:
                found.append(Command(argv=[*entry, *(_words(args) or [])], env=_env_map(node.get("env")), where=where or "document"))
        for key, value in node.items():
            found.extend(_containers(value, f"{where}.{key}" if where else str(key)))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            found.extend(_containers(value, f"{where}[{index}]"))
    return found


# -- Dockerfile --------------------------------------------------------------------------------


@dataclass
class _Stage:
    name: str
    env: dict[str, str]
    entrypoint: list[str] | None
    cmd: list[str] | None


def dockerfile_commands(text: str) -> list[Command]:
    parser = DockerfileParser(fileobj=io.BytesIO(text.encode("utf-8", "surrogateescape")))
    stages: dict[str, _Stage] = {}
    order: list[_Stage] = []
    current: _Stage | None = None
    for instruction, context in zip(parser.structure, parser.context_structure):
        kind, value = instruction["instruction"], instruction["value"]
        if kind == "FROM":
            words = value.split()
            words = [w for w in words if not w.startswith("--")]
            base = words[0] if words else ""
            alias = words[2] if len(words) >= 3 and words[1].lower() == "as" else f"stage{len(order)}"
            parent = stages.get(base.lower())
            if parent is not None:
                current = _Stage(alias, dict(parent.env), parent.entrypoint, parent.cmd)
            else:
                current = _Stage(alias, {}, image_entrypoint(base), None)
            stages[alias.lower()] = current
            order.append(current)
        elif current is None:
            continue
        elif kind == "ENV":
            current.env.update(context.line_envs)
        elif kind == "ENTRYPOINT":
            current.entrypoint, current.cmd = _exec_or_shell(value), None
        elif kind == "CMD":
            current.cmd = _exec_or_shell(value)
    commands = []
    for stage in order:
        entry = stage.entrypoint or []
        cmd = [] if entry and entry[:2] == ["/bin/sh", "-c"] else (stage.cmd or [])
        argv = [*entry, *cmd]
        if argv:
            reason = "the arguments come from `docker run` (ENTRYPOINT without CMD)" if entry and stage.cmd is None else ""
            commands.append(Command(argv=argv, env=dict(stage.env), where=f"stage {stage.name}", open_reason=reason))
    return commands


def _exec_or_shell(value: str) -> list[str]:
    stripped = value.strip()
    if stripped.startswith("["):
        try:
            words = json.loads(stripped)
            if isinstance(words, list) and all(isinstance(w, str) for w in words):
                return words
        except ValueError:
            pass
    return ["/bin/sh", "-c", stripped]

"""dstack run configurations (`.dstack.yml`, `service.dstack.yml`): a task's, a service's or a dev
environment's shell commands, where the server starts (dstackai/dstack `docs/docs/services.md`:
`commands: - vllm serve $MODEL_ID --max-model-len 4096`).

A document is a run configuration when its `type` is `task`, `service` or `dev-environment`
(`core/models/configurations.py`, `RunConfigurationType`). dstack joins a job's `commands` (a
dev environment's `init`; each replica group's own `commands`) with ` && ` into one script, a
command ending in `&` wrapped in `{ ... }` (`jobs/configurators/base.py`, `_join_shell_commands`),
and runs it with `/bin/sh -i -c` in `image:`, `/bin/bash` in dstack's own image, or `shell:`. The
script runs with `env:`: a list of `NAME=value`, or a bare `NAME` whose value `dstack apply` takes
from its own environment (`core/models/envs.py`, `EnvSentinel`: unknown), or a mapping; a
`${{ secrets.NAME }}` value is unknown, as is `${{ run.args }}` in a command (the words given to
`dstack apply`). The counts dstack's runner sets (`$DSTACK_GPUS_NUM`, ...) are read from the
configuration (`dstack_counts`). A vLLM image's tag (`vllm/vllm-openai:v0.34.0`) gives the release. A
configuration with an `entrypoint:` hands its commands to that program as words: not read.
"""

from __future__ import annotations

import re

from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from ...model import UNKNOWN, Launch, LaunchKind, Setting
from ...readers.yaml_nodes import STR, dash_of, get, get_str, items, span
from ...readers.yaml_scalars import escape_in_scalar
from ...readers.yaml_text import scalar_text
from ...shells import is_shell
from ...source import ExtractContext, SourceFile
from .command_lists import joined_script
from .container_launch import Env, YamlEnvPlace, container_context, entry_removal, image_of, script_launches, shell_frontend
from .dstack_counts import with_runner_counts
from .workflows import env_map

_RUN_TYPES = ("task", "service", "dev-environment")
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")  # dstack's `_ENV_STRING_REGEX`
_INTERPOLATION = re.compile(r"\$\{\{.*?\}\}")


def is_run_configuration(document: Node) -> bool:
    """A `type` dstack runs, with commands (a document of another tool's `type: service` is left to
    the other readers)."""
    return (
        isinstance(document, MappingNode)
        and get_str(document, "type") in _RUN_TYPES
        and any(isinstance(get(document, key), SequenceNode) for key in ("commands", "init", "replicas"))
    )


def extract(source: SourceFile, context: ExtractContext, document: Node) -> list[Launch]:
    if shell_frontend() is None or get(document, "entrypoint") is not None or not is_shell(get_str(document, "shell") or "sh"):
        return []
    env = _env(source, get(document, "env"))
    image_node = get(document, "image")
    image_name = image_node.value if isinstance(image_node, ScalarNode) and image_node.tag == STR else None
    image = image_of(image_name, span(source.index, image_node) if image_name else None)
    jobs: list[tuple[Node | None, Node | None]] = [
        (get(document, "init" if get_str(document, "type") == "dev-environment" else "commands"), None)
    ]
    jobs += [(get(group, "commands"), group) for group in items(get(document, "replicas"))]
    launches: list[Launch] = []
    for commands, group in jobs:
        script = joined_script(source, items(commands), " && ", _INTERPOLATION, braced_background=True)
        if script is not None:
            text, style, fixable = script
            where = container_context(LaunchKind.CLI, with_runner_counts(env, source, document, group), image)
            launches.extend(script_launches(source, context, where, text, style, fixable))
    return launches


def _env(source: SourceFile, node: Node | None) -> Env:
    """`env:` as a mapping (as a workflow's) or a list of `NAME=value` and bare `NAME` entries."""
    if not isinstance(node, SequenceNode):
        return env_map(source, node, Env())
    env = Env()
    text, index = source.text, source.index
    for item in node.value:
        raw = scalar_text(text, item) if isinstance(item, ScalarNode) and item.tag == STR else None
        name = raw.value.partition("=")[0] if raw is not None else ""
        if raw is None or not _NAME.fullmatch(name):
            env.open = True
            continue
        item_span = span(index, item)
        if "=" not in raw.value:
            env.set(Setting(name, UNKNOWN, item_span, raw.value, None), None)  # given by `dstack apply`'s environment
            continue
        value = raw.value[len(name) + 1 :]
        a, b = raw.region(len(name) + 1, len(raw))
        value_span = index.span(a, b) if raw.exact else None
        dash = dash_of(text, item)
        found = entry_removal(source, dash, item_span.end, len(node.value), "[]") if dash is not None else None
        style = item.style or ""
        place = None if found is None else YamlEnvPlace(found[0], value_span, lambda v, style=style: escape_in_scalar(v, style), found[1])
        env.set(Setting(name, UNKNOWN if "${{" in value else value, item_span, raw.value, value_span), place)
    return env

"""SkyPilot task YAML: `setup: |` and `run: |` are bash scripts, and `run` is where the server
starts (skypilot-org/skypilot `llm/vllm/serve.yaml`: `vllm serve ... --port 8000`).

A document is a task when its top level holds both `run` and `resources` (SkyPilot's task
schema; a service YAML adds `service:`). Both scripts run with the task's `envs:` (and
`secrets:`) exported; a variable SkyPilot leaves to `sky launch --env NAME=...` (a null value) is
unknown. A `pip install vllm==X` in `setup` gives the release `run` starts. Everything else
(`resources`, `file_mounts`, `service.readiness_probe`) is not a launch.

`run` also sees the variables SkyPilot sets when it runs the task
(`docs/source/running-jobs/environment-variables.rst`) that the task decides:
`SKYPILOT_NUM_GPUS_PER_NODE`, the count of `resources.accelerators` (`A100:8`; a name alone is
one; a fraction rounded up; none is 0; candidates `{L4, A10g}`, `[...]`, `any_of`/`ordered`
agreeing on one count), `SKYPILOT_NUM_NODES` (`num_nodes`, default 1) and, on one node,
`SKYPILOT_NODE_RANK` 0. A count the candidates do not agree on, or one not written as a number,
stays unknown.
"""

from __future__ import annotations

import math

from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from ...model import Launch, LaunchKind, Setting
from ...readers.yaml_nodes import STR, entries, get, items, span
from ...readers.yaml_text import scalar_text
from ...source import ExtractContext, SourceFile
from .container_launch import Env, Image, container_context, script_launches
from .workflows import env_map, pinned_release

_NUMBER_TAGS = ("tag:yaml.org,2002:int", "tag:yaml.org,2002:float")


def is_task(document: Node) -> bool:
    return isinstance(document, MappingNode) and get(document, "run") is not None and get(document, "resources") is not None


def extract(source: SourceFile, context: ExtractContext, document: Node) -> list[Launch]:
    env = env_map(source, get(document, "secrets"), env_map(source, get(document, "envs"), Env()))
    launches: list[Launch] = []
    pinned: Image | None = None
    for key in ("setup", "run"):
        script = get(document, key)
        if not isinstance(script, ScalarNode) or script.tag != STR:
            continue
        text = scalar_text(source.text, script)
        where = _with_runtime(env, source, document) if key == "run" else env
        launches.extend(script_launches(source, context, container_context(LaunchKind.CLI, where, pinned), text, script.style or "", True))
        pinned = pinned_release(source, text, "in the task's setup") or pinned
    return launches


def _with_runtime(env: Env, source: SourceFile, document: Node) -> Env:
    """The task's environment with the variables SkyPilot sets for `run` that the task decides
    (a name the task's `envs:` sets keeps the task's value)."""
    given = env.copy()
    resources = get(document, "resources")
    nodes_node = get(document, "num_nodes")
    nodes = _count(nodes_node) if nodes_node is not None else 1
    found = {
        "SKYPILOT_NUM_GPUS_PER_NODE": (_gpus(resources), resources),
        "SKYPILOT_NUM_NODES": (nodes, nodes_node),
        "SKYPILOT_NODE_RANK": (0 if nodes == 1 else None, nodes_node),
    }
    for name, (count, node) in found.items():
        if count is None or name in given.settings:
            continue
        where = span(source.index, node if node is not None else resources)
        given.set(Setting(name, str(count), where, f"{name}={count} (SkyPilot's, for this task)", None), None)
    return given


def _gpus(resources: Node | None) -> int | None:
    """The GPUs per node every candidate of `resources` reserves (None: not one count, or not
    known). A candidate of `any_of`/`ordered` without `accelerators` takes the top level's."""
    top = get(resources, "accelerators")
    choices = [*items(get(resources, "any_of")), *items(get(resources, "ordered"))] or [resources]
    counts = set().union(*(_counts(get(choice, "accelerators") or top) for choice in choices))
    return counts.pop() if len(counts) == 1 else None


def _counts(accelerators: Node | None) -> set[int | None]:
    if accelerators is None:
        return {0}
    if isinstance(accelerators, ScalarNode):
        return {_named_count(accelerators)}
    if isinstance(accelerators, MappingNode):  # `{L4, A100:8}` (a set), `{A100: 8}`
        return {_named_count(key) if value.tag.endswith(":null") else _count(value) for key, value in entries(accelerators)}
    if isinstance(accelerators, SequenceNode):
        return {_named_count(item) if isinstance(item, ScalarNode) else None for item in accelerators.value}
    return {None}


def _named_count(node: ScalarNode) -> int | None:
    """`A100:8` -> 8, `L4` -> 1, `A100:0.5` -> 1 (SkyPilot rounds a fraction up)."""
    if node.tag != STR or "$" in node.value:
        return None
    name, colon, count = node.value.partition(":")
    if not colon:
        return 1 if name.strip() else None
    return _number(count)


def _count(node: Node) -> int | None:
    if not isinstance(node, ScalarNode) or node.tag not in (*_NUMBER_TAGS, STR):
        return None
    return _number(node.value)


def _number(text: str) -> int | None:
    try:
        value = float(text.strip())
    except ValueError:
        return None
    return math.ceil(value) if math.isfinite(value) and value >= 0 else None

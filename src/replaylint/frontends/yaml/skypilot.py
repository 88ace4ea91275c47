"""SkyPilot task YAML: `setup: |` and `run: |` are bash scripts, and `run` is where the server
starts (skypilot-org/skypilot `llm/vllm/serve.yaml`: `vllm serve ... --port 8000`).

A document is a task when its top level holds both `run` and `resources` (SkyPilot's task
schema; a service YAML adds `service:`). Both scripts run with the task's `envs:` (and
`secrets:`) exported; a variable SkyPilot leaves to `sky launch --env NAME=...` (a null value) is
unknown. A `pip install vllm==X` in `setup` gives the release `run` starts. Everything else
(`resources`, `file_mounts`, `service.readiness_probe`) is not a launch.
"""

from __future__ import annotations

from yaml.nodes import MappingNode, Node, ScalarNode

from ...model import Launch, LaunchKind
from ...readers.yaml_nodes import STR, get
from ...readers.yaml_text import scalar_text
from ...source import ExtractContext, SourceFile
from .container_launch import Env, Image, container_context, script_launches
from .workflows import env_map, pinned_release


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
        launches.extend(script_launches(source, context, container_context(LaunchKind.CLI, env, pinned), text, script.style or "", True))
        pinned = pinned_release(source, text, "in the task's setup") or pinned
    return launches

"""Baseten Truss `config.yaml` with a custom server: `docker_server.start_command` is the command
the container runs (basetenlabs truss-examples' vLLM configs: `start_command: sh -c "vllm serve
..."`), with the config's `environment_variables` in its environment and `base_image.image` the
image it runs in.

A document is a Truss config when `docker_server` is a mapping holding `start_command` and the top
level names `model_name`, `base_image`, `resources` or `environment_variables` (Truss's config
schema). Truss hands the command to a shell (its supervisord `command=sh -c "..."`), so the text is
read as a script; a variable Baseten sets from a secret or at deploy time is unknown, as in any
container.
"""

from __future__ import annotations

from yaml.nodes import MappingNode, Node, ScalarNode

from ...model import Launch, LaunchKind
from ...readers.yaml_nodes import STR, get, get_str
from ...readers.yaml_text import scalar_text
from ...source import ExtractContext, SourceFile
from .container_launch import Env, container_context, image_of, script_launches
from .workflows import env_map

_TRUSS_KEYS = ("model_name", "base_image", "resources", "environment_variables")


def is_truss(document: Node) -> bool:
    server = get(document, "docker_server")
    return (
        isinstance(document, MappingNode)
        and isinstance(server, MappingNode)
        and get(server, "start_command") is not None
        and any(get(document, key) is not None for key in _TRUSS_KEYS)
    )


def extract(source: SourceFile, context: ExtractContext, document: Node) -> list[Launch]:
    command = get(get(document, "docker_server"), "start_command")
    if not isinstance(command, ScalarNode) or command.tag != STR:
        return []
    env = env_map(source, get(document, "environment_variables"), Env())
    image_node = get(document, "base_image", "image")
    where = source.index.span(image_node.start_mark.index, image_node.end_mark.index) if image_node is not None else None
    image = image_of(get_str(document, "base_image", "image"), where)
    text = scalar_text(source.text, command)
    return script_launches(source, context, container_context(LaunchKind.CLI, env, image), text, command.style or "", True)

"""Dev containers (`.devcontainer/devcontainer.json`, `.devcontainer.json`, `.devcontainer/NAME/
devcontainer.json`): the lifecycle commands the Dev Containers spec runs inside the container
(`onCreateCommand`, `updateContentCommand`, `postCreateCommand`, `postStartCommand`,
`postAttachCommand`). A string runs in a shell (`/bin/sh -c`), an array is the command's own
words (no shell), and an object runs each of its values in parallel. `image` is the release
evidence (a `build` of a Dockerfile gives none). `initializeCommand` runs on the host, not in the
container: not read. `containerEnv` and `remoteEnv` (which may read `${localEnv:...}`) reach the
commands, so a file that has either leaves the environment open. Read as YAML (JSON is YAML):
a file with `//` comments (JSON with comments, which the spec allows) is not read.
"""

from __future__ import annotations

import os

from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from ...model import Launch, LaunchKind
from ...readers.yaml_nodes import STR, entries, get, get_str, span
from ...readers.yaml_text import scalar_text
from ...readers.yaml_words import Words, item_tokens, sequence_words
from ...source import ExtractContext, SourceFile
from .container_launch import Env, command as command_launches, container_context, image_of, script_launches

_LIFECYCLE = ("onCreateCommand", "updateContentCommand", "postCreateCommand", "postStartCommand", "postAttachCommand")
_NAMES = ("devcontainer.json", ".devcontainer.json")


def extract(source: SourceFile, context: ExtractContext, document: Node) -> list[Launch]:
    if os.path.basename(source.path) not in _NAMES or not isinstance(document, MappingNode):
        return []
    image_node = get(document, "image")
    image_name = image_node.value if isinstance(image_node, ScalarNode) and image_node.tag == STR else None
    image = image_of(image_name, span(source.index, image_node) if image_node is not None else None)
    env = Env(open=any(get(document, key) is not None for key in ("containerEnv", "remoteEnv")))
    label = f"dev container {get_str(document, 'name') or ''}".rstrip()
    launches: list[Launch] = []
    for key in _LIFECYCLE:
        held = get(document, key)
        commands = [value for _, value in entries(held)] if isinstance(held, MappingNode) else [held] if held is not None else []
        launch_context = container_context(LaunchKind.CLI, env, image, f"{label}, {key}")
        for command in commands:
            launches.extend(_command(source, context, launch_context, command))
    return launches


def _command(source: SourceFile, context: ExtractContext, launch_context, node: Node) -> list[Launch]:
    if isinstance(node, ScalarNode) and node.tag == STR:
        return script_launches(source, context, launch_context, scalar_text(source.text, node), node.style or "", True)
    if not isinstance(node, SequenceNode):
        return []
    found = sequence_words(source.index, node, lambda text: text)
    if found is None:
        return []
    words = Words()
    words.extend(item_tokens(source.index, node, *found))  # type: ignore[arg-type]
    return command_launches(source, context, launch_context, span(source.index, node), words)

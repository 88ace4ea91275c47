"""docker-compose `env_file:`: compose reads each file next to the compose file, later files
over earlier ones, and `environment:` over them all (the lines: `readers/env_file.py`). A
file that cannot be read opens the environment, unless it is marked `required: false` (compose
then skips it).
"""

from __future__ import annotations

from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from ...model import Setting
from ...readers.env_file import parse
from ...readers.yaml_nodes import get
from ...source import ExtractContext, SourceFile


def declared(node: Node | None) -> list[tuple[str, bool]] | None:
    """The files `env_file` names, each with whether it is required (None: not readable here)."""
    items = node.value if isinstance(node, SequenceNode) else [node]
    found = []
    for item in items:
        if isinstance(item, ScalarNode):
            found.append((item.value, True))
        elif isinstance(item, MappingNode) and isinstance(get(item, "path"), ScalarNode):
            required = get(item, "required")
            found.append((get(item, "path").value, not (isinstance(required, ScalarNode) and required.value.lower() == "false")))
        else:
            return None
    return found


def read(source: SourceFile, context: ExtractContext, node: Node | None) -> tuple[dict[str, Setting], bool]:
    """The settings the files of `env_file` give, and whether the environment stays open."""
    files = declared(node)
    if files is None:
        return {}, True
    settings: dict[str, Setting] = {}
    opened = False
    for name, required in files:
        if "$" in name:
            opened = True
            continue
        path = _beside(source.path, name)
        text = context.read_text(path)
        if text is None:
            opened = opened or required
            continue
        settings.update(parse(path, text))
    return settings, opened


def _beside(compose_path: str, name: str) -> str:
    import os

    return os.path.normpath(os.path.join(os.path.dirname(compose_path), name))

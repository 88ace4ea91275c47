"""`env[].valueFrom.configMapKeyRef`: a container variable taken from one key of a ConfigMap;
`envFrom[].configMapRef`: all of its keys.

The ConfigMap is looked up by name in the manifest's own file, else among the other YAML files
of its folder (applied together, `kubectl apply -f deploy/`): the value is that key's, written
there, so a finding on it points into the ConfigMap. A ConfigMap the folder does not hold (made
in the cluster), one that two files define, a key it lacks (`optional: true` or not), a value
that is not a plain string: unknown.
"""

from __future__ import annotations

import os
import re

from yaml.nodes import MappingNode, Node, ScalarNode

from ...model import LineIndex, Span
from ...readers.yaml_nodes import STR, ComposeError, compose_all, get, get_str, span
from ...source import ExtractContext, SourceFile

_SUFFIXES = (".yaml", ".yml")
_CONFIG_MAP = re.compile(r"^kind:\s*['\"]?ConfigMap\b", re.MULTILINE)
_MAX_FILES = 64


class ConfigMapKeys:
    """The values of ConfigMap keys a manifest's containers refer to, with where each is written."""

    def __init__(self, source: SourceFile, context: ExtractContext, maps: dict[str, MappingNode]) -> None:
        self._source = source
        self._context = context
        self._own = maps
        self._folder: dict[str, list[tuple[LineIndex, MappingNode]]] | None = None

    def value(self, ref: Node) -> tuple[str, Span] | None:
        """The value `configMapKeyRef` (`ref`) names and its span, when the tree decides it."""
        name, key = get_str(ref, "name"), get_str(ref, "key")
        if not name or not key:
            return None
        if name in self._own:
            return _entry(self._source.index, self._own[name], key)
        found = self._in_folder().get(name, [])
        return _entry(*found[0], key) if len(found) == 1 else None

    def whole(self, name: str) -> tuple[LineIndex, MappingNode] | None:
        """The `data` of the ConfigMap `configMapRef` names, with the index of its file."""
        if name in self._own:
            return self._source.index, self._own[name]
        found = self._in_folder().get(name, []) if name else []
        return found[0] if len(found) == 1 else None

    def _in_folder(self) -> dict[str, list[tuple[LineIndex, MappingNode]]]:
        if self._folder is None:
            self._folder = {}
            folder = os.path.dirname(self._source.path)
            names = sorted(n for n in self._context.list_folder(folder) if n.endswith(_SUFFIXES))
            for name in names[:_MAX_FILES]:
                path = os.path.join(folder, name)
                if os.path.abspath(path) != os.path.abspath(self._source.path):
                    self._read(path)
        return self._folder

    def _read(self, path: str) -> None:
        assert self._folder is not None
        text = self._context.read_text(path)
        if text is None or not _CONFIG_MAP.search(text):
            return
        try:
            documents = compose_all(text)
        except ComposeError:
            return
        index = LineIndex(path, text)
        for document in documents:
            data, name = get(document, "data"), get_str(document, "metadata", "name")
            if get_str(document, "kind") == "ConfigMap" and name and isinstance(data, MappingNode):
                self._folder.setdefault(name, []).append((index, data))


def _entry(index: LineIndex, data: MappingNode, key: str) -> tuple[str, Span] | None:
    value = get(data, key)
    if not isinstance(value, ScalarNode) or value.tag != STR:
        return None
    return value.value, span(index, value)

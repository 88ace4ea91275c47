"""RL framework configurations written in YAML: verl, NeMo-RL, ROLL, AReaL and torchforge configs.

A document is handed to the first adapter that claims it, asked in the registry's order
(`framework_registry.yaml_finders`: verl's top-level `actor_rollout_ref.rollout`, NeMo-RL's
`policy.generation` or `generation` with its vLLM tables, AReaL's `experiment_name`,
`trial_name` and `vllm:`, ROLL's workers with `strategy_args`, torchforge's `policy.engine_config`
or `engine_args`). `YamlView` gives the adapters values and the spans of the keys that hold them,
and `_read_view` the other YAML files of the tree they inherit (NeMo-RL's and ROLL's `defaults:`), each composed once. A document no adapter
claims is searched for engine-argument mappings that turn the mask on.
"""

from __future__ import annotations

from functools import partial
from typing import Any, Callable

from yaml.nodes import MappingNode, Node

from ...framework_registry import yaml_finders
from ...frameworks import engine_mappings
from ...frameworks.views import ConfigView
from ...model import Launch, LaunchKind, LineIndex, Span
from ...readers.yaml_nodes import ComposeError, compose_all, construct, content_end, get, mapping, source, span, walked
from ...source import ExtractContext, SourceFile


class YamlView(ConfigView):
    """A composed YAML document as nested configuration values with key spans."""

    def __init__(self, index: LineIndex, document: Node) -> None:
        self.index = index
        self.document = document

    def _entry(self, path: tuple[str, ...]) -> tuple[Node, Node] | None:
        """The (key, value) nodes of `path`."""
        return mapping(get(self.document, *path[:-1])).get(path[-1]) if path else None

    def value(self, *path: str, default: Any = None) -> Any:
        node = get(self.document, *path) if path else self.document
        return default if node is None else construct(node)

    def has(self, *path: str) -> bool:
        return get(self.document, *path) is not None if path else True

    def key_span(self, *path: str) -> Span | None:
        found = self._entry(path)
        return None if found is None else self.index.span(found[0].start_mark.index, found[0].end_mark.index)

    def span(self, *path: str) -> Span | None:
        found = self._entry(path)
        if found is None:
            return None
        key, value = found
        return self.index.span(key.start_mark.index, max(key.end_mark.index, content_end(self.index.text, value)))

    def value_span(self, *path: str) -> Span | None:
        found = self._entry(path)
        return None if found is None else span(self.index, found[1])

    def spelling(self, *path: str) -> str:
        found = self._entry(path)
        if found is None:
            return ".".join(path)
        _, value = found
        return " ".join(f"{'.'.join(path)}: {source(self.index.text, value)}".split())


def extract(source_file: SourceFile, context: ExtractContext, document: Node) -> list[Launch]:
    """The launches of the first adapter that claims the document (`Adapter.yaml_finder`, in the
    registry's order), else its engine-argument mappings."""
    if not isinstance(document, MappingNode):
        return []
    view = YamlView(source_file.index, document)
    read_view = partial(_read_view, context.read_text)
    for adapter in yaml_finders():
        claimed = getattr(adapter.load(), adapter.yaml_finder)(view, source_file.path, context.read_text, read_view)
        if claimed is not None:
            return claimed
    return _engine_mappings(source_file, document)


def _engine_mappings(source_file: SourceFile, document: Node) -> list[Launch]:
    """Nested mappings of vLLM engine arguments that turn the mask on (`frameworks.engine_mappings`),
    open-ended; the document's own top level is `standalone_config`'s. Kubernetes objects are
    read by `kubernetes` (a ConfigMap's data may name engine arguments without being a launch)."""
    roots = mapping(document)
    if "apiVersion" in roots and "kind" in roots:
        return []
    launches = []
    for node, path in walked(document):
        if not path or not isinstance(node, MappingNode) or engine_mappings.MASK not in mapping(node):
            continue
        view = YamlView(source_file.index, node)
        values = view.value(default={})
        if not isinstance(values, dict) or not engine_mappings.writes_mask_on(values):
            continue
        keys = [str(key) for key in values]
        if not engine_mappings.looks_like_engine(keys):
            continue
        settings = {key.replace("-", "_"): found for key in keys if (found := view.setting(key.replace("-", "_"), key)) is not None}
        anchor = YamlView(source_file.index, document).key_span(*path) if "[" not in "".join(path) else None
        launches.append(
            Launch(
                LaunchKind.PYTHON_CALL,
                anchor or span(source_file.index, node),
                settings,
                open_reasons=(engine_mappings.OPEN_REASON,),
                label=f"engine arguments in {'.'.join(path)}",
            )
        )
    return launches


_PARENTS: dict[str, tuple[str, YamlView | None]] = {}  # path -> (text, view): a parent many configs inherit is composed once
_MAX_PARENTS = 32


def _read_view(read_text: Callable[[str], str | None], path: str) -> YamlView | None:
    """Another YAML file of the tree (a `defaults:` file) as a view, for the adapters' finders:
    composed once while its text stays the same; None when it is not readable or not a mapping."""
    text = read_text(path)
    if text is None:
        return None
    cached = _PARENTS.get(path)
    if cached is not None and cached[0] == text:
        return cached[1]
    try:
        documents = compose_all(text)
    except ComposeError:
        documents = None
    view = YamlView(LineIndex(path, text), documents[0]) if documents and isinstance(documents[0], MappingNode) else None
    if len(_PARENTS) >= _MAX_PARENTS:
        _PARENTS.pop(next(iter(_PARENTS)))
    _PARENTS[path] = (text, view)
    return view

"""RL framework configurations written in YAML: verl, NeMo-RL, ROLL and AReaL configs.

A document is handed to the adapter whose shape it has: first the registry's
`Adapter.yaml_finder`s (`frameworks.verl`: a top-level `actor_rollout_ref.rollout`;
`frameworks.areal`: `experiment_name`, `trial_name` and `vllm:`), then the two whose `defaults:`
files this frontend reads: `frameworks.nemo_rl` (`policy.generation` with `vllm_cfg` or
`vllm_kwargs`, or `policy.sampling_mask_replay`, or an evaluation config's top-level
`generation` with them, in the file or in the `defaults:` files it inherits) and
`frameworks.roll` (top-level workers with `strategy_args`, one launch per worker whose
`strategy_name` is `vllm`). `YamlView` gives the adapters values and the
spans of the keys that hold them. NeMo-RL's `defaults:` files (paths relative to the config,
merged under it by `load_config_with_inheritance`) are read when they are in reach, and a key
they write is spelled with the name of the file checked (a finding that lands in a parent names
the child that inherits it); verl's packaged defaults are the adapter's.
"""

from __future__ import annotations

import os
from typing import Any

from yaml.nodes import MappingNode, Node

from ...framework_registry import yaml_finders
from ...frameworks import engine_mappings, nemo_rl, roll
from ...frameworks.views import ConfigView, Inherited, Layered
from ...launch_context import LaunchContext
from ...model import Launch, LaunchKind, LineIndex, Span
from ...readers.yaml_nodes import ComposeError, compose_all, construct, content_end, get, mapping, source, span, walked
from ...source import ExtractContext, SourceFile

_MAX_DEFAULTS = 4


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
    if not isinstance(document, MappingNode):
        return []
    view = YamlView(source_file.index, document)
    for adapter in yaml_finders():
        claimed = getattr(adapter.load(), adapter.yaml_finder)(view, source_file.path, context.read_text)
        if claimed is not None:
            return claimed
    roots = mapping(document)
    if ("policy" in roots or "generation" in roots) and (nemo_rl.is_config(view) or "defaults" in roots):
        reasons: list[str] = []
        layered = _with_defaults(view, source_file.path, context, reasons, 0, source_file.path)
        layout = nemo_rl.layout_of(layered)
        if layout is not None:
            anchor = _key_span(view, layout.generation) or _key_span(view, layout.generation[:1]) or source_file.index.span(0, 0)
            forked = nemo_rl.nemo_rl_fork.fork(source_file.path, context.read_text)
            label = nemo_rl.forked_label(f"nemo-rl: {source_file.path}", forked)
            launch = nemo_rl.adapt(
                layered, anchor, LaunchContext(LaunchKind.FRAMEWORK, label=label, open_reasons=tuple(reasons)), forked=forked
            )
            return [launch] if launch is not None else []
    if roll.is_config(view):
        return _roll(view, source_file.path, context)
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
        anchor = _key_span(YamlView(source_file.index, document), tuple(path)) if "[" not in "".join(path) else None
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


def _roll(view: YamlView, path: str, context: ExtractContext) -> list[Launch]:
    """One launch per vLLM worker."""
    launches = []
    workers = roll.vllm_workers(view)
    reasons = _hydra_defaults(view, path, context, {worker[0] for worker in workers} | {"system_envs", "validation"})
    for worker in workers:
        anchor = _key_span(view, (*worker, *roll.CONFIG)) or _key_span(view, (*worker, *roll.STRATEGY))
        if anchor is not None:
            launches.append(
                roll.adapt(view, worker, anchor, LaunchContext(LaunchKind.FRAMEWORK, label=f"roll: {path}", open_reasons=tuple(reasons)))
            )
    return launches


def _hydra_defaults(view: YamlView, path: str, context: ExtractContext, keys: set[str]) -> list[str]:
    """Hydra `defaults:` entries that may write `keys` (the config's own keys win, as `_self_`
        comes last by default, but a default file may add engine keys the config leaves out). An
        entry `GROUP/NAME@_here_` (or `@_global_`) merges the file `GROUP/NAME.yaml`, next to the
        config, at the top level (so does an entry without a group); without a package, a group's
    file lands under the group's last name (Hydra's default package, inferred)."""
    defaults = view.value("defaults")
    if defaults is None:
        return []
    if not isinstance(defaults, list):
        return ["defaults: (not a list)"]
    reasons = []
    for entry in defaults:
        if entry == "_self_":
            continue
        if not isinstance(entry, str):
            reasons.append(f"defaults: {entry} (a config group option, not read here)")
            continue
        name, _, package = entry.partition("@")
        group = name.rstrip("/").rpartition("/")[0].rpartition("/")[2]  # `envs` of `envs/sokoban`
        landing = None if package in ("_here_", "_global_") or not (package or group) else (package or group).split(".")[0]
        if landing is not None and landing not in keys:
            continue
        candidate = os.path.normpath(os.path.join(os.path.dirname(path), name if name.endswith((".yaml", ".yml")) else name + ".yaml"))
        text = context.read_text(candidate) if not os.path.isabs(name) else None
        try:
            documents = compose_all(text) if text is not None else None
        except ComposeError:
            documents = None
        if not documents or not isinstance(documents[0], MappingNode):
            reasons.append(f"defaults: {entry} (not read here)")
        elif landing is not None or keys & set(mapping(documents[0])):
            reasons.append(f"defaults: {entry} (writes worker settings, not merged here)")
    return reasons


def _key_span(view: YamlView, path: tuple[str, ...]) -> Span | None:
    return view.key_span(*path)


_PARENTS: dict[str, tuple[str, YamlView | None]] = {}  # path -> (text, view): a parent many configs inherit is composed once
_MAX_PARENTS = 32


def _parent_view(path: str, text: str) -> YamlView | None:
    """The view of a `defaults:` file, composed once while its text stays the same."""
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


def _with_defaults(view: ConfigView, path: str, context: ExtractContext, reasons: list[str], depth: int, heir: str) -> ConfigView:
    """NeMo-RL's `defaults:` (a path or a list of paths next to the config) under the config;
    a parent's keys are spelled with the name of `heir`, the file checked."""
    defaults = view.value("defaults")
    names = [defaults] if isinstance(defaults, str) else [d for d in defaults if isinstance(d, str)] if isinstance(defaults, list) else []
    layers: list[ConfigView] = []
    for name in names:
        candidate = os.path.normpath(os.path.join(os.path.dirname(path), name))
        text = context.read_text(candidate) if depth < _MAX_DEFAULTS and not os.path.isabs(name) else None
        parent = _parent_view(candidate, text) if text is not None else None
        if parent is None:
            reasons.append(f"defaults: {name} (not read here)")
            continue
        base = Inherited(parent, heir)
        layers.append(_with_defaults(base, candidate, context, reasons, depth + 1, heir))
    return Layered([*layers, view]) if layers else view

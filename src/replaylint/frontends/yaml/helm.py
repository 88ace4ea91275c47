"""Helm values: vllm-project/production-stack `modelSpec`s, and `extraArgs` next to a vLLM image.

production-stack (chart `helm/templates/deployment-vllm-multi.yaml` at vllm-project/
production-stack@f1f9822790e76c4d5ac03303c32ce2073e44c573; keys documented in its
`helm/values.yaml`) starts every `servingEngineSpec.modelSpec[]` entry as

    vllm serve <modelURL> --host 0.0.0.0 --port <port>
      [--enable-lora]                      if enableLoRA
      [--enable-auto-tool-choice]          if enableTool
      [--tool-call-parser <toolCallParser>]
      with vllmConfig:
        --enable-chunked-prefill | --no-enable-chunked-prefill   if it has enableChunkedPrefill
        --enable-prefix-caching | --no-enable-prefix-caching     (always)
        --max-model-len <maxModelLen>, --dtype <dtype>, --tensor-parallel-size
        <tensorParallelSize>, --max-num-seqs <maxNumSeqs>, --gpu_memory_utilization
        <gpuMemoryUtilization>, --max_loras <maxLoras>           (each if present)
        <extraArgs...>                                            (each item one word)
      [--kv-transfer-config ...]           with lmcacheConfig
      [--chat-template /templates/<chatTemplate>]

in the image `<repository>:<tag>`, with `env` (Kubernetes format) added to the container and
`envFromSecret` / `servingEngineSpec.configs` as `envFrom` (an open environment). Truthiness
is Go's (`false`, 0, "" and absence are false). Other `vllmConfig` keys are ignored by the
chart. A `raySpec` entry runs vLLM from a generated script instead (open-ended).

vLLM's own chart (`examples/deployment/chart-helm`, `name: chart-vllm` in its Chart.yaml; the
template `templates/deployment.yaml` of the 0.33.0 sdist): `image.command` is the container's
whole command and `image.env` its environment, in the image `image.repository:image.tag`; its
`configs`, `secrets` and `externalConfigs` become `envFrom` (an open environment). Without that
Chart.yaml next to the values, an `image.command` that starts vLLM is read the same way but is
open-ended: another chart's template decides what it means.

Other charts: a mapping with `extraArgs` (or `args` / `extra_args`) beside a vLLM image
(`image: vllm/vllm-openai:v0.31.0` or `image: {repository: vllm/vllm-openai, tag: v0.31.0}`)
gives a launch of those words; the chart's template may add more, so it is open-ended, unless
the chart's own template (next to a `Chart.yaml`) passes the list plainly to one container
(`helm_templates`): then the launch is that container's `args:` as the template renders them.
"""

from __future__ import annotations

import os
import re
from typing import Any, Callable

from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from ...model import Launch, LaunchKind, LineIndex
from ...readers.yaml_nodes import STR, construct, content_end, get, get_str, items, mapping, source, span, walked
from ...readers.yaml_words import Container, Place, Words, item_tokens, sequence_words
from ...source import ExtractContext, SourceFile
from ...vllm.command_line import Token
from .container_launch import Env, Image, build, built, command, container_context, image_of
from .helm_overrides import Layers, installed
from .helm_templates import ranged_container
from .kubernetes import env_of

# vllmConfig keys with a value, in the chart's order.
_VALUE_KEYS = (
    ("maxModelLen", "--max-model-len"),
    ("dtype", "--dtype"),
    ("tensorParallelSize", "--tensor-parallel-size"),
    ("maxNumSeqs", "--max-num-seqs"),
    ("gpuMemoryUtilization", "--gpu_memory_utilization"),
    ("maxLoras", "--max_loras"),
)
_ARGS_KEYS = ("extraArgs", "extra_args", "args")
_VLLM_CHART = "chart-vllm"
_CHART_NAME = re.compile(r"""^name:\s*["']?([\w.-]+)""", re.MULTILINE)


def is_production_stack(document: Node) -> bool:
    return isinstance(get(document, "servingEngineSpec", "modelSpec"), SequenceNode)


def _truthy(node: Node | None) -> bool:
    if node is None:
        return False
    value = construct(node)
    if isinstance(value, (bool, int, float, str, list, dict)):
        return bool(value)
    return False


class _Keys:
    """Words that the chart makes of mapping keys: removable entries, replaceable values."""

    def __init__(self, source: SourceFile, words: Words) -> None:
        self.source = source
        self.words = words
        self.entries = Container("entries", [])

    def _entry(self, key: ScalarNode, value: Node) -> Place:
        self.entries.elements.append((key.start_mark.index, content_end(self.source.text, value)))
        return Place(self.entries, len(self.entries.elements) - 1)

    def switch(self, flag: str, key: ScalarNode, value: Node) -> None:
        index, text = self.source.index, self.source.text
        whole = index.span(key.start_mark.index, content_end(text, value))
        self.words.add(Token(flag, whole, f"{key.value}: {source(text, value)}"), self._entry(key, value))

    def option(self, flag: str, key: ScalarNode, value: Node) -> None:
        index, text = self.source.index, self.source.text
        place = self._entry(key, value)
        self.words.add(Token(flag, span(index, key), f"{key.value}:"), place)
        if isinstance(value, ScalarNode):
            holder = Container("value", [(value.start_mark.index, content_end(text, value))], style=value.style or "")
            self.words.add(Token(value.value, span(index, value), source(text, value)), Place(holder, 0))
        else:
            self.words.add(Token(None, span(index, value), source(text, value)), None)


def _image(node: Node | None, index: Any) -> Image | None:
    if isinstance(node, ScalarNode) and node.tag == STR:
        return image_of(node.value, span(index, node))
    if isinstance(node, MappingNode):
        repository = get(node, "repository")
        tag = get(node, "tag")
        if not isinstance(repository, ScalarNode):
            return None
        name = repository.value
        registry = get_str(node, "registry")
        if registry:
            name = f"{registry}/{name}"
        if isinstance(tag, ScalarNode) and tag.value:
            name = f"{name}:{tag.value}"
        return image_of(name, span(index, tag if isinstance(tag, ScalarNode) else repository))
    return None


def _production_stack(source: SourceFile, context: ExtractContext, document: Node) -> list[Launch]:
    index = source.index
    serving = get(document, "servingEngineSpec")
    configs = get(serving, "configs")
    launches = []
    for spec in items(get(serving, "modelSpec")):
        if not isinstance(spec, MappingNode):
            continue
        fields = mapping(spec)
        words = Words()
        keys = _Keys(source, words)
        model = get(spec, "modelURL")
        if isinstance(model, ScalarNode):
            holder = Container("value", [(model.start_mark.index, content_end(source.text, model))], style=model.style or "")
            words.add(
                Token(model.value, span(index, model), source.text[model.start_mark.index : content_end(source.text, model)]),
                Place(holder, 0),
            )
        for name, flag in (("enableLoRA", "--enable-lora"), ("enableTool", "--enable-auto-tool-choice")):
            if name in fields and _truthy(fields[name][1]):
                keys.switch(flag, *fields[name])
        if "toolCallParser" in fields and _truthy(fields["toolCallParser"][1]):
            keys.option("--tool-call-parser", *fields["toolCallParser"])
        config = get(spec, "vllmConfig")
        reasons: list[str] = []
        if isinstance(config, MappingNode):
            options = mapping(config)
            for name, flag in (("enableChunkedPrefill", "--enable-chunked-prefill"), ("enablePrefixCaching", "--enable-prefix-caching")):
                if name in options:
                    negated = "--no-" + flag[2:]
                    keys.switch(flag if _truthy(options[name][1]) else negated, *options[name])
            for name, flag in _VALUE_KEYS:
                if name in options:
                    keys.option(flag, *options[name])
            extra = get(config, "extraArgs")
            if extra is not None and _truthy(extra):
                found = sequence_words(index, extra)
                if found is None:
                    reasons.append("vllmConfig.extraArgs is not a list")
                else:
                    texts, container = found
                    words.extend(item_tokens(index, extra, texts, container, templates=True))  # type: ignore[arg-type]
        elif config is not None and not (isinstance(config, ScalarNode) and config.tag.endswith(":null")):
            reasons.append("vllmConfig is not a mapping")
        env = env_of(source, get(spec, "env"), None)
        if get(spec, "envFromSecret") is not None or _truthy(configs):
            env.open = True
        if "raySpec" in fields:
            reasons.append("raySpec: the chart starts vLLM from a generated script")
        name = get_str(spec, "name")
        image = None
        repository, tag = get(spec, "repository"), get(spec, "tag")
        if isinstance(repository, ScalarNode):
            image_name = repository.value + (f":{tag.value}" if isinstance(tag, ScalarNode) and tag.value else "")
            image = image_of(image_name, span(index, tag if isinstance(tag, ScalarNode) else repository))
        label = f"modelSpec {name}" if name else "modelSpec"
        launches.extend(built(build(container_context(LaunchKind.HELM, env, image, label, reasons), span(index, spec), words, "serve")))
    return launches


def _container_item(path: tuple[str, ...]) -> bool:
    return (len(path) >= 2 and path[-2] in ("containers", "initContainers", "ephemeralContainers")) or (
        bool(path) and path[-1] == "container"
    )


def _chart_args(source: SourceFile, context: ExtractContext, document: Node) -> list[Launch]:
    index = source.index
    launches = []
    for node, path in walked(document):
        if not isinstance(node, MappingNode) or _container_item(path):
            continue
        fields = mapping(node)
        if not any(key in fields for key in _ARGS_KEYS):
            continue
        install = installed(context, source.path, ("image", *_ARGS_KEYS)) if not path else None
        image = _layered_image(install) if install is not None else _image(fields["image"][1], index) if "image" in fields else None
        if image is None or not image.vllm:
            continue
        for key in _ARGS_KEYS:
            if key not in fields or (install is not None and not install.decided_here(key)):
                continue
            args = fields[key][1]
            found = sequence_words(index, args)
            if found is None:
                continue
            texts, container = found
            words = item_tokens(index, args, texts, container, templates=True)  # type: ignore[arg-type]
            env_node = get(node, "env")
            env = env_of(source, env_node, None) if isinstance(env_node, SequenceNode) else Env()
            env.open = True
            label = ".".join(path) or "values"
            reasons = [f"the chart's template decides how `{key}` reaches vLLM"]
            rendered = _rendered(source, context, (*path, key), words, _lookup(source, document, install))
            if rendered is not None:
                (words, env.open, label), reasons = rendered, []
            launches.extend(built(build(container_context(LaunchKind.HELM, env, image, label, reasons), span(index, node), words, "serve")))
    return launches


def _layered_image(install: Layers) -> Image | None:
    """The image once Helm merged the files: a text as the last file writes it, or a mapping's
    `repository`, `tag` and `registry` each from the last file that sets it."""
    found = install.lookup("image")
    if found is None or not isinstance(found[1], MappingNode):
        return _image(found[1], found[0]) if found is not None else None
    parts = {key: install.lookup(f"image.{key}") for key in ("repository", "tag", "registry")}
    if not all(part is None or (isinstance(part[1], ScalarNode) and part[1].tag == STR) for part in parts.values()):
        return None
    repository, tag, registry = parts["repository"], parts["tag"], parts["registry"]
    if repository is None:
        return None
    name = (f"{registry[1].value}/" if registry is not None else "") + repository[1].value
    evidence = tag if tag is not None and tag[1].value else repository
    return image_of(f"{name}:{tag[1].value}" if evidence is tag else name, span(*evidence))


def _lookup(source: SourceFile, document: Node, install: Layers | None) -> Callable[[str], tuple[LineIndex, Node] | None]:
    if install is not None:
        return install.lookup
    return lambda dotted: (source.index, found) if (found := get(document, *dotted.split("."))) is not None else None


def _rendered(
    source: SourceFile,
    context: ExtractContext,
    listed: tuple[str, ...],
    ranged: Words,
    lookup: Callable[[str], tuple[LineIndex, Node] | None],
) -> tuple[Words, bool, str] | None:
    """The container's words as the chart's own template renders them (`helm_templates`): its
    `args:` items in order, the values list among them; whether its environment is open; a label.
    None when the template is not read that plainly. `lookup` gives a values key's node (from
    another values file when Helm merges several)."""
    chart = ranged_container(context, source.path, ".".join(listed), ".".join((*listed[:-1], "image")))
    if chart is None:
        return None
    words = Words()
    for item in chart.items:
        if item.kind == "range":
            words.extend(ranged)
        elif item.kind == "literal" and item.index is not None:
            words.add(Token(item.text, item.index.span(item.start, item.end), item.index.text[item.start : item.end]), None)
        else:
            found = lookup(item.path)
            if found is None or not isinstance(found[1], ScalarNode) or found[1].tag != STR:
                return None
            where, value = found
            holder = Container("value", [(value.start_mark.index, content_end(where.text, value))], style=value.style or "")
            shown = where.text[value.start_mark.index : content_end(where.text, value)]
            words.add(Token(value.value, span(where, value), shown), Place(holder, 0) if where is source.index else None)
    return words, chart.env, f"{os.path.basename(chart.template)} args"


def _vllm_chart(source: SourceFile, context: ExtractContext, document: Node) -> list[Launch]:
    """vLLM's own chart: `image.command` is the container's command (see the module docstring)."""
    image_node = get(document, "image") if isinstance(document, MappingNode) else None
    command_node = get(image_node, "command") if isinstance(image_node, MappingNode) else None
    image = _image(image_node, source.index)
    if not isinstance(command_node, SequenceNode) or image is None or not image.vllm:
        return []
    found = sequence_words(source.index, command_node)
    if found is None:
        return []
    texts, container = found
    words = item_tokens(source.index, command_node, texts, container, templates=True)  # type: ignore[arg-type]
    env_node = get(image_node, "env")
    env = env_of(source, env_node, None) if isinstance(env_node, SequenceNode) else Env()
    env.open = env.open or any(_truthy(get(document, key)) for key in ("configs", "secrets", "externalConfigs"))
    chart = context.read_text(os.path.join(os.path.dirname(source.path), "Chart.yaml"))
    name = _CHART_NAME.search(chart) if chart is not None else None
    reasons = [] if name is not None and name.group(1) == _VLLM_CHART else ["the chart's template decides what `image.command` runs"]
    where = container_context(LaunchKind.HELM, env, image, "image.command", reasons)
    return command(source, context, where, span(source.index, command_node), words)


def extract(source: SourceFile, context: ExtractContext, document: Node) -> list[Launch]:
    if is_production_stack(document):
        return _production_stack(source, context, document)
    return _vllm_chart(source, context, document) + _chart_args(source, context, document)

"""Kubernetes manifests: every container of every pod template, and KServe model specs.

Pod templates are found structurally, so every workload kind is covered the same way:
Pod, Deployment, StatefulSet, DaemonSet, ReplicaSet, Job, CronJob
(`spec.jobTemplate.spec.template`), `List` items, LeaderWorkerSet
(`leaderWorkerTemplate.leaderTemplate` / `workerTemplate`), KServe `ServingRuntime`
(`spec.containers`) and `InferenceService` (`spec.predictor.containers`), RayCluster pods,
Argo `container:` templates (and `script:` templates' shell sources, `argo`; a template a
Workflow never names is not run): any `containers:` sequence (not `initContainers`, which do not
serve); a DynamoGraphDeployment service's `extraPodSpec.mainContainer`, with the service's
`envs`. Per container:

- `image` (its tag is the release evidence) and `command` / `args` (sequences of strings).
  Without `command` the image's entrypoint runs with `args`: the `vllm/vllm-openai` image runs
  `vllm serve`. Another image's entrypoint is unknown: its args count only when they name the
  replay switch, and the launch is open-ended.
- `command` replaces the entrypoint: `vllm serve`, `python -m vllm.entrypoints.openai.api_server`,
  `python -m dynamo.vllm`, or `sh -c SCRIPT` (the script goes to the shell interpreter).
- `$(VAR)` in command and args is expanded from the container's `env` (kubelet's rules:
  `$$` is a literal `$`; a variable whose value we cannot know makes the word unknown).
- `env`: `value` (itself expanded from earlier variables), `valueFrom` (unknown), no value
  (the empty string), over `envFrom`: a `configMapRef` to a ConfigMap of the same file gives
  its `data` (with the item's `prefix`); anything else can define any variable, so the
  environment is open.
- `--config /path/file.yaml` is read when the path is a key of a ConfigMap of the same file,
  mounted as a volume at its directory (with or without `items`) or by `subPath`; findings
  then point into the ConfigMap's text; or when an init container writes it with a heredoc into an
  `emptyDir` both mount (`init_written`). Any other path is not ours to read (open-ended).

KServe: an InferenceService's `spec.predictor.model` runs its ServingRuntime's first
container with the model's `args` appended and its `env` merged over the runtime's (KServe
`MergeRuntimeContainers`); `{{.Name}}`-style placeholders are KServe's own and stay as text.
The runtime is looked up by name in the same file; a ServingRuntime that an InferenceService
of the file uses is checked only through it, any other ServingRuntime alone (open-ended: an
InferenceService may append arguments).
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import replace
from typing import Callable, Iterator

from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from ...edits import Sequence, remove
from ...model import UNKNOWN, Launch, LaunchKind, LineIndex, Setting
from ...readers import vllm_config
from ...readers.yaml_nodes import HOLE, STR, content_end, dash_of, entries, get, get_str, items, span, walked
from ...readers.yaml_scalars import k8s_expand, scalar, templated
from ...readers.yaml_text import Text, scalar_text
from ...readers.yaml_words import Words, item_tokens, sequence_words
from ...source import ExtractContext, SourceFile
from ...vllm.command_line import ConfigLoader, Token
from .argo import script_templates, unrun_templates
from .config_map_keys import ConfigMapKeys
from .container_launch import (
    Env,
    YamlEnvPlace,
    build,
    built,
    command as command_launches,
    container_context,
    entry_removal,
    image_of,
    mentions_replay,
    script_launches,
)
from .init_written import written_config
from .k8s_services import reached
from .openshift import manifests, without_parameters

_RUNTIME_KINDS = ("ServingRuntime", "ClusterServingRuntime")


def label_of(document: Node) -> str:
    kind = get_str(document, "kind") or "manifest"
    name = get_str(document, "metadata", "name")
    return f"{kind} {name}" if name else kind


def containers(document: Node) -> Iterator[tuple[MappingNode, MappingNode, Node | None]]:
    """Every container with the pod spec (or template) that holds it, and the environment its
    owner adds (a Dynamo service's `envs`)."""
    for node, _ in walked(document):
        if not isinstance(node, MappingNode):
            continue
        held = get(node, "containers")
        if isinstance(held, SequenceNode):
            for item in held.value:
                if isinstance(item, MappingNode):
                    yield node, item, None
        single = get(node, "container")
        if isinstance(single, MappingNode) and get(single, "image") is not None:
            yield node, single, None
        main = get(node, "extraPodSpec", "mainContainer")  # a DynamoGraphDeployment service's
        if isinstance(main, MappingNode):
            yield node, main, get(node, "envs")


def config_maps(documents: list[Node]) -> dict[str, MappingNode]:
    found = {}
    for document in documents:
        data = get(document, "data")
        name = get_str(document, "metadata", "name")
        if get_str(document, "kind") == "ConfigMap" and name and isinstance(data, MappingNode):
            found[name] = data
    return found


def config_loader(source: SourceFile, maps: dict[str, MappingNode], pod: MappingNode | None, container: MappingNode) -> ConfigLoader | None:
    """`--config /path` read from a ConfigMap of the same file mounted at that path (a volume
    mount of the directory, with `items` or not, or a `subPath` mount of one key)."""
    if pod is None or (not maps and get(pod, "initContainers") is None):
        return None
    volumes: dict[str, tuple[str, dict[str, str] | None]] = {}
    for volume in items(get(pod, "volumes")):
        name, map_name = get_str(volume, "name"), get_str(volume, "configMap", "name")
        if name and map_name:
            listed = items(get(volume, "configMap", "items"))
            paths = {get_str(i, "path") or "": get_str(i, "key") or "" for i in listed} if listed else None
            volumes[name] = (map_name, paths)
    mounts = [(get_str(m, "mountPath"), get_str(m, "name"), get_str(m, "subPath")) for m in items(get(container, "volumeMounts"))]

    def load(path_text: str, token: Token) -> list[Token] | None:
        if not path_text.startswith("/"):
            return None
        path = posixpath.normpath(path_text)
        for mount_path, volume_name, sub_path in mounts:
            if not mount_path or not volume_name:
                continue
            mount_path = posixpath.normpath(mount_path)
            if sub_path:
                if path != mount_path:
                    continue
                inside = sub_path
            elif path.startswith(mount_path.rstrip("/") + "/"):
                inside = path[len(mount_path.rstrip("/")) + 1 :]
            else:
                continue
            if volume_name not in volumes:  # a volume an init container may fill
                written = None if sub_path else written_config(source, pod, volume_name, inside)
                if written is not None:
                    return vllm_config.embedded_tokens(source, written)
                continue
            map_name, paths = volumes[volume_name]
            key = paths.get(inside) if paths is not None else inside
            value = get(maps.get(map_name), key) if key else None
            if not isinstance(value, ScalarNode) or value.tag != STR:
                return None
            return vllm_config.embedded_tokens(source, scalar_text(source.text, value))
        return None

    return load


def env_of(
    source: SourceFile,
    env_node: Node | None,
    env_from: Node | None,
    base: Env | None = None,
    maps: dict[str, MappingNode] | None = None,
    keys: ConfigMapKeys | None = None,
) -> Env:
    """A container's `env` list (later entries win) over its `envFrom` and `base`."""
    env = base.copy() if base is not None else Env()
    for item in items(env_from):
        found = _referenced_map(source, get_str(item, "configMapRef", "name") or "", maps, keys)
        if found is None:
            env.open = True  # a Secret, or a ConfigMap of the cluster: any variable
            continue
        map_index, data = found
        prefix = get_str(item, "prefix") or ""
        for key, value_node in entries(data):
            if isinstance(value_node, ScalarNode):
                whole = map_index.span(key.start_mark.index, content_end(map_index.text, value_node))
                shown = f"{prefix}{key.value}={value_node.value}"
                env.set(Setting(prefix + key.value, value_node.value, whole, shown, span(map_index, value_node)), None)
    if not isinstance(env_node, SequenceNode):
        if env_node is not None and not (isinstance(env_node, ScalarNode) and env_node.tag.endswith(":null")):
            env.open = True
        return env
    text = source.text
    index = source.index
    flow = bool(env_node.flow_style)
    for position, item in enumerate(env_node.value):
        name_node = get(item, "name")
        if not isinstance(name_node, ScalarNode) or templated(name_node.value) or not isinstance(item, MappingNode):
            env.open = True
            continue
        name = name_node.value
        value_node = get(item, "value")
        value_from = get(item, "valueFrom")
        ref = get(value_from, "configMapKeyRef") if value_from is not None else None
        from_map = keys.value(ref) if keys is not None and ref is not None else None
        value: object
        if isinstance(value_node, ScalarNode) and not value_node.tag.endswith(":null"):
            expanded = k8s_expand(scalar_text(text, value_node), env.values)
            value = UNKNOWN if HOLE in expanded.value or templated(expanded.value) else expanded.value
            shown = value_node.value
        elif value_from is not None or value_node is not None:
            value, shown = UNKNOWN, "<valueFrom>" if value_from is not None else "<unknown>"
        else:
            value, shown = "", ""
        if value_from is not None:
            value = from_map[0] if from_map is not None else UNKNOWN
            shown = from_map[0] if from_map is not None else shown
        end = content_end(text, item)
        setting_span = index.span(item.start_mark.index, end)
        value_span = span(index, value_node) if isinstance(value_node, ScalarNode) else None
        if flow:
            bounds = tuple((i.start_mark.index, content_end(text, i)) for i in env_node.value)
            removal = remove(index, Sequence(bounds, env_node.end_mark.index - 1, ","), {position})[0].span
            replacement = ""
        else:
            dash = dash_of(text, item)
            found = entry_removal(source, dash, end, len(env_node.value), "[]") if dash is not None else None
            removal, replacement = found if found is not None else (None, "")
        style = (value_node.style or "") if isinstance(value_node, ScalarNode) else ""
        place = None
        if removal is not None:
            place = YamlEnvPlace(removal, value_span, lambda v, style=style, flow=flow: scalar(v, style, flow), replacement)
        env.set(Setting(name, value, setting_span, f"{name}={shown}", from_map[1] if from_map is not None else value_span), place)
    return env


def _referenced_map(
    source: SourceFile, name: str, maps: dict[str, MappingNode] | None, keys: ConfigMapKeys | None
) -> tuple[LineIndex, MappingNode] | None:
    """The ConfigMap an `envFrom` item names: the file's own, else (`keys`) its folder's."""
    if keys is not None:
        return keys.whole(name)
    data = (maps or {}).get(name)
    return (source.index, data) if data is not None else None


def _script(source: SourceFile, nodes: list[Node], env: Env):
    def script(position: int) -> tuple[Text, str, bool] | None:
        if position >= len(nodes) or not isinstance(nodes[position], ScalarNode):
            return None
        node = nodes[position]
        raw = scalar_text(source.text, node)
        return k8s_expand(raw, env.values, keep_unknown=True), node.style or "", True

    return script


_WHOLE_REFERENCE = re.compile(r"\$\(([^()\s$]+)\)")
_DOTTED_REFERENCE = re.compile(r"(-[^=\s$.]+\.[^=\s$]+)=\$\(([^()\s$]+)\)")  # `-sc.method=$(METHOD)`


def _with_written(token: Token, item: Node, env: Env) -> Token:
    """An item that is one variable of the container's `env` (`- $(SPEC_CONFIG)`): its value is
    written at the variable's `value:` (or the ConfigMap key it comes from); so is the value of
    a dotted key whose text after `=` is one variable (`--speculative-config.method=$(METHOD)`:
    the key's whole value; `--speculative-config=$(SPEC)` stays at the word, as before)."""
    text = item.value if isinstance(item, ScalarNode) and isinstance(item.value, str) else ""
    whole = _WHOLE_REFERENCE.fullmatch(text)
    setting = env.settings.get(whole.group(1)) if whole is not None and token.known else None
    if setting is not None and setting.value_span is not None and setting.value == token.text:
        return replace(token, written=setting.value_span)
    option = _DOTTED_REFERENCE.fullmatch(text)
    setting = env.settings.get(option.group(2)) if option is not None and token.known else None
    if setting is None or setting.value_span is None or f"{option.group(1)}={setting.value}" != token.text:  # type: ignore[union-attr]
        return token
    return replace(token, inline_written=setting.value_span)


def container_launches(
    source: SourceFile,
    context: ExtractContext,
    node: MappingNode,
    label: str,
    runtime: bool = False,
    appended: tuple[Node | None, Node | None] | None = None,
    unknown_entrypoint: str | None = None,
    load_config: ConfigLoader | None = None,
    maps: dict[str, MappingNode] | None = None,
    owner_env: Node | None = None,
    keys: ConfigMapKeys | None = None,
    patch_args: Callable[[Words], Words] | None = None,
    parameters: bool = False,
) -> list[Launch]:
    """Launches of one container. `runtime`: a KServe runtime (its `{{.Name}}` placeholders are
    text); `appended` = (args, env) of the InferenceService model spec that runs it; `maps`:
    the ConfigMaps of the file; `owner_env`: the `envs` of the Dynamo service that runs it
    (under the container's own `env`); `patch_args`: what an overlay does to the `args` words; `parameters`: an OpenShift Template's
    object, whose `${NAME}` words are not known."""
    index = source.index
    image_node = get(node, "image")
    image_name = image_node.value if isinstance(image_node, ScalarNode) and image_node.tag == STR else None
    image = image_of(image_name, span(index, image_node) if image_node is not None else None)
    base = env_of(source, owner_env, None) if owner_env is not None else None
    env = env_of(source, get(node, "env"), get(node, "envFrom"), base, maps=maps, keys=keys)
    if appended is not None:
        env = env_of(source, appended[1], None, env)
    command_node = get(node, "command")
    nodes: list[Node] = []
    words = Words()
    for part in (command_node, get(node, "args"), appended[0] if appended else None):
        if part is None or (isinstance(part, ScalarNode) and part.tag.endswith(":null")):
            continue
        found = sequence_words(index, part, lambda text: k8s_expand(without_parameters(text) if parameters else text, env.values))
        if found is None:
            return []
        texts, container = found
        held = item_tokens(index, part, texts, container, templates=runtime)  # type: ignore[arg-type]
        held.tokens = [_with_written(token, item, env) for token, item in zip(held.tokens, part.value)]  # type: ignore[union-attr]
        words.extend(patch_args(held) if patch_args is not None and part is get(node, "args") else held)
        nodes.extend(part.value)
    reasons = []
    if runtime and appended is None and unknown_entrypoint is None:
        reasons.append("an InferenceService may append arguments")
    name = get_str(node, "name")
    where = f"{label}, container {name}" if name else label
    launch_span = span(index, node)
    if command_node is None and not (image is not None and image.vllm) and mentions_replay(words.tokens):
        reasons.append(unknown_entrypoint or f"the entrypoint of image {image_name or '(none)'} is not known")
    container = container_context(LaunchKind.KUBERNETES, env, image, where, reasons, load_config)
    if command_node is None:
        known = (image is not None and image.vllm) or mentions_replay(words.tokens)
        return built(build(container, launch_span, words, "serve")) if known else []
    return command_launches(source, context, container, launch_span, words, script=_script(source, nodes, env))


def _model_launches(source: SourceFile, context: ExtractContext, document: Node, runtimes: dict[str, MappingNode]) -> list[Launch]:
    model = get(document, "spec", "predictor", "model")
    if not isinstance(model, MappingNode):
        return []
    label = label_of(document)
    runtime_name = get_str(model, "runtime")
    runtime = runtimes.get(runtime_name or "")
    if runtime is not None:
        first = next(iter(items(get(runtime, "spec", "containers"))), None)
        if not isinstance(first, MappingNode):
            return []
        appended = (get(model, "args"), get(model, "env"))
        return container_launches(source, context, first, f"{label} on {runtime_name}", runtime=True, appended=appended)
    # The runtime is elsewhere (or chosen by model format): the model's own words only.
    reason = f"the ServingRuntime {runtime_name} is not in this file" if runtime_name else "the ServingRuntime is chosen by model format"
    return container_launches(source, context, model, label, runtime=True, unknown_entrypoint=reason)


def _script_template_launches(
    source: SourceFile,
    context: ExtractContext,
    script: MappingNode,
    script_source: ScalarNode,
    label: str,
    maps: dict[str, MappingNode],
    keys: ConfigMapKeys,
) -> list[Launch]:
    """An Argo `script:` template's shell script, run in its image with its environment."""
    image_node = get(script, "image")
    image_name = image_node.value if isinstance(image_node, ScalarNode) and image_node.tag == STR else None
    image = image_of(image_name, span(source.index, image_node) if image_node is not None else None)
    env = env_of(source, get(script, "env"), get(script, "envFrom"), maps=maps, keys=keys)
    launch_context = container_context(LaunchKind.KUBERNETES, env, image, f"{label}, script template")
    text = scalar_text(source.text, script_source)
    return script_launches(source, context, launch_context, text, script_source.style or "", True)


def extract(source: SourceFile, context: ExtractContext, documents: list[Node]) -> list[Launch]:
    documents, templated = manifests(documents)
    runtimes: dict[str, MappingNode] = {}
    used: set[str] = set()
    for document in documents:
        kind = get_str(document, "kind")
        if kind in _RUNTIME_KINDS:
            name = get_str(document, "metadata", "name")
            if name:
                runtimes[name] = document  # type: ignore[assignment]
        elif kind == "InferenceService":
            runtime = get_str(document, "spec", "predictor", "model", "runtime")
            if runtime:
                used.add(runtime)
    maps = config_maps(documents)
    keys = ConfigMapKeys(source, context, maps)
    launches: list[Launch] = []
    for document in documents:
        kind = get_str(document, "kind")
        name = get_str(document, "metadata", "name") or ""
        if kind in _RUNTIME_KINDS and name in used:
            continue
        label = label_of(document)
        unrun = unrun_templates(document)
        for pod, container, owner_env in containers(document):
            if id(pod) in unrun:
                continue
            loader = config_loader(source, maps, pod, container)
            launches.extend(
                container_launches(
                    source,
                    context,
                    container,
                    label,
                    runtime=kind in _RUNTIME_KINDS,
                    load_config=loader,
                    maps=maps,
                    owner_env=owner_env,
                    keys=keys,
                    parameters=id(document) in templated,
                )
            )
        for script, script_source in script_templates(document, unrun):
            launches.extend(_script_template_launches(source, context, script, script_source, label, maps, keys))
        if kind == "InferenceService":
            launches.extend(_model_launches(source, context, document, runtimes))
    return reached(documents, launches)

"""HashiCorp Nomad jobs in JSON, the API form (`nomad job run -output job.nomad.hcl` prints it, `POST
/v1/jobs` takes it): `{"Job": {"TaskGroups": [{"Tasks": [...]}]}}`, or the job object itself.

A task of the `docker` (or `podman`) driver runs its `Config.image` as Docker does: `entrypoint`
(a list) replaces the image's entrypoint, `command` (one word) its `CMD`, and `args` follow them
(the driver's docs: "arguments to the optional command. If no command is specified, the arguments
are passed directly to the container"). So the `vllm/vllm-openai` image runs `vllm serve` with
`command` and `args`; another image's entrypoint is not known, and its words count only when they
name the replay switch. A word Nomad interpolates (`${NOMAD_PORT_http}`, `${env.X}`, `${meta.x}`)
is not known here. The task's `Env` map is its environment; a `Templates` entry with `Envvars`
(a rendered env file) can set any variable. Jobs written in HCL are read as command lines
(`frontends/command_lines/nomad_hcl`).
"""

from __future__ import annotations

from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from ...model import UNKNOWN, Launch, LaunchKind, Setting
from ...readers.yaml_nodes import HOLE, STR, entries, get, get_str, items, span
from ...readers.yaml_text import Text
from ...readers.yaml_words import Words, item_tokens, sequence_words
from ...source import ExtractContext, SourceFile
from .container_launch import Env, build, built, command as command_launches, container_context, image_of, mentions_replay

_DRIVERS = ("docker", "podman")


def is_job(document: Node) -> bool:
    return bool(_task_groups(document))


def _task_groups(document: Node) -> list[Node]:
    job = get(document, "Job") if get(document, "Job") is not None else document
    return items(get(job, "TaskGroups"))


def extract(source: SourceFile, context: ExtractContext, document: Node) -> list[Launch]:
    launches: list[Launch] = []
    for group in _task_groups(document):
        for task in items(get(group, "Tasks")):
            if isinstance(task, MappingNode) and get_str(task, "Driver") in _DRIVERS:
                label = f"task group {get_str(group, 'Name') or ''}, task {get_str(task, 'Name') or ''}"
                launches.extend(_task_launches(source, context, task, label))
    return launches


def _task_launches(source: SourceFile, context: ExtractContext, task: MappingNode, label: str) -> list[Launch]:
    index = source.index
    config = get(task, "Config")
    image_node = get(config, "image")
    image_name = image_node.value if isinstance(image_node, ScalarNode) and image_node.tag == STR else None
    image = image_of(image_name, span(index, image_node) if image_node is not None else None)
    entrypoint, command, args = (get(config, key) for key in ("entrypoint", "command", "args"))
    if isinstance(command, ScalarNode):  # one word: read as a list of one
        command = SequenceNode("tag:yaml.org,2002:seq", [command], command.start_mark, command.end_mark, flow_style=True)
    words = Words()
    for part in (entrypoint, command, args):
        if part is None:
            continue
        found = sequence_words(index, part, _uninterpolated)
        if found is None:
            return []
        words.extend(item_tokens(index, part, *found))  # type: ignore[arg-type]
    reasons = []
    if entrypoint is None and not (image is not None and image.vllm) and mentions_replay(words.tokens):
        reasons.append(f"the entrypoint of image {image_name or '(none)'} is not known")
    launch_context = container_context(LaunchKind.CLI, _env(source, task), image, label, reasons)
    if entrypoint is None:
        known = (image is not None and image.vllm) or mentions_replay(words.tokens)
        return built(build(launch_context, span(index, task), words, "serve")) if known else []
    return command_launches(source, context, launch_context, span(index, task), words)


def _uninterpolated(text: Text) -> Text:
    return Text.filled(HOLE, *text.anchor, False) if "${" in text.value else text


def _env(source: SourceFile, task: MappingNode) -> Env:
    env = Env(open=any(get(template, "Envvars") is not None for template in items(get(task, "Templates"))))
    held = get(task, "Env")
    env.open = env.open or (held is not None and not isinstance(held, MappingNode))
    for key, value in entries(held) if isinstance(held, MappingNode) else ():
        known = isinstance(value, ScalarNode) and value.tag == STR and "${" not in value.value
        shown = f"{key.value}={value.value if known else '<unknown>'}"  # type: ignore[union-attr]
        value_span = span(source.index, value) if known else None
        env.set(Setting(str(key.value), value.value if known else UNKNOWN, span(source.index, key), shown, value_span), None)  # type: ignore[union-attr]
    return env

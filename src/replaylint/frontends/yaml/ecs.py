"""AWS ECS task definitions: each container of `containerDefinitions` (the JSON that `aws ecs
register-task-definition --cli-input-json` takes, also under `taskDefinition` as `describe` and
`register` print it), and of a CloudFormation `AWS::ECS::TaskDefinition`'s `ContainerDefinitions`
(YAML, or JSON as `cdk synth` writes it; keys in PascalCase).

Per container, as Docker runs it: `image` (its tag is the release evidence); `entryPoint` replaces
the image's entrypoint and `command` its `CMD`, so with no `entryPoint` the image's own runs with
`command` as its arguments (the `vllm/vllm-openai` image's `vllm serve`; another image's is not
known, and its words count only when they name the replay switch). ECS expands no variables in
these words; `sh -c SCRIPT` goes to the shell interpreter with the container's environment:
`environment` (`[{name, value}]`), `secrets` (their values unknown), `environmentFiles` (any
variable: the environment is open). A CloudFormation intrinsic (`!Sub`, `Fn::Join`) or a Go
template is a value not known here.
"""

from __future__ import annotations

from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from ...model import UNKNOWN, Launch, LaunchKind, Setting
from ...readers.yaml_nodes import HOLE, STR, entries, get, get_str, items, span
from ...readers.yaml_scalars import templated
from ...readers.yaml_text import Text, scalar_text
from ...readers.yaml_words import Words, item_tokens, sequence_words
from ...source import ExtractContext, SourceFile
from .container_launch import Env, build, built, command as command_launches, container_context, image_of, mentions_replay

_TASK_DEFINITION = "AWS::ECS::TaskDefinition"
# The keys of a container definition in the JSON API and in CloudFormation.
_API = {
    name: name
    for name in ("containerDefinitions", "image", "entryPoint", "command", "environment", "secrets", "environmentFiles", "name", "value")
}
_CLOUDFORMATION = {key: key[0].upper() + key[1:] for key in _API}


def is_task_definition(document: Node) -> bool:
    return bool(_definitions(document))


def extract(source: SourceFile, context: ExtractContext, document: Node) -> list[Launch]:
    launches: list[Launch] = []
    for label, definitions, keys in _definitions(document):
        for container in items(definitions):
            if isinstance(container, MappingNode):
                launches.extend(_container_launches(source, context, container, label, keys))
    return launches


def _definitions(document: Node) -> list[tuple[str, Node, dict[str, str]]]:
    """The container definition lists of a document, each with its label and key names."""
    found = []
    for holder in (document, get(document, "taskDefinition")):
        listed = get(holder, "containerDefinitions")
        if listed is not None:
            found.append((f"task definition {get_str(holder, 'family') or ''}".rstrip(), listed, _API))
    resources = get(document, "Resources")
    for name, resource in entries(resources) if isinstance(resources, MappingNode) else ():
        listed = get(resource, "Properties", "ContainerDefinitions")
        if get_str(resource, "Type") == _TASK_DEFINITION and listed is not None:
            found.append((f"{_TASK_DEFINITION} {name.value}", listed, _CLOUDFORMATION))
    return found


def _container_launches(source: SourceFile, context: ExtractContext, node: MappingNode, label: str, keys: dict[str, str]) -> list[Launch]:
    index = source.index
    image_node = get(node, keys["image"])
    image_name = image_node.value if isinstance(image_node, ScalarNode) and image_node.tag == STR else None
    image = image_of(image_name, span(index, image_node) if image_node is not None else None)
    env = _env(source, node, keys)
    entrypoint = get(node, keys["entryPoint"])
    nodes: list[Node] = []
    words = Words()
    for part in (entrypoint, get(node, keys["command"])):
        if part is None or (isinstance(part, ScalarNode) and part.tag.endswith(":null")):
            continue
        found = sequence_words(index, part, _unknown_templates)
        if found is None:
            return []
        words.extend(item_tokens(index, part, *found))  # type: ignore[arg-type]
        nodes.extend(part.value)
    name = get_str(node, keys["name"])
    where = f"{label}, container {name}" if name else label
    reasons = []
    if entrypoint is None and not (image is not None and image.vllm) and mentions_replay(words.tokens):
        reasons.append(f"the entrypoint of image {image_name or '(none)'} is not known")
    launch_context = container_context(LaunchKind.CLI, env, image, where, reasons)
    if entrypoint is None:
        known = (image is not None and image.vllm) or mentions_replay(words.tokens)
        return built(build(launch_context, span(index, node), words, "serve")) if known else []

    def script(position: int) -> tuple[Text, str, bool] | None:
        held = nodes[position] if position < len(nodes) else None
        if not isinstance(held, ScalarNode) or held.tag != STR:
            return None
        return _unknown_templates(scalar_text(source.text, held)), held.style or "", True

    return command_launches(source, context, launch_context, span(index, node), words, script=script)


def _unknown_templates(text: Text) -> Text:
    return Text.filled(HOLE, *text.anchor, False) if _rendered(text.value) else text


def _env(source: SourceFile, node: MappingNode, keys: dict[str, str]) -> Env:
    env = Env(open=get(node, keys["environmentFiles"]) is not None)
    for listed, known in ((keys["environment"], True), (keys["secrets"], False)):
        held = get(node, listed)
        env.open = env.open or (held is not None and not isinstance(held, SequenceNode))
        for item in items(held):
            name_node, value_node = get(item, keys["name"]), get(item, keys["value"])
            if not isinstance(name_node, ScalarNode) or name_node.tag != STR:
                env.open = True
                continue
            plain = known and isinstance(value_node, ScalarNode) and not value_node.tag.endswith(":null")
            value = value_node.value if plain and not _rendered(value_node.value) else UNKNOWN  # type: ignore[union-attr]
            shown = f"{name_node.value}={value if isinstance(value, str) else '<unknown>'}"
            value_span = span(source.index, value_node) if plain else None  # type: ignore[arg-type]
            env.set(Setting(name_node.value, value, span(source.index, item), shown, value_span), None)
    return env


def _rendered(value: str) -> bool:
    """A value a template renders (`{{ .Tag }}`, a `${AWS::Region}` of `!Sub`): not known here."""
    return templated(value) or "${" in value

"""A container a cloud SDK program declares, read as Docker runs it.

A Vertex AI model's serving container (google-cloud-aiplatform's `aiplatform.Model.upload(...)`,
GoogleCloudPlatform/vertex-ai-samples' `deploy_model_vllm`): the container runs
`serving_container_command` with `serving_container_args` (the image's entrypoint with the args
when no command is given), in an environment of `serving_container_environment_variables` alone
(the container does not inherit the deploying program's). The words are read as the program
builds them (a list grown under a settings constant, `vllm_args.append(...)`): a `vllm serve`
command line. Without a command, the `vllm/vllm-openai` image runs `vllm serve`; another image's
entrypoint is not known, and its args count only when they name the replay switch (open-ended).
The image's tag is the release evidence of the project's own image.

An AWS CDK (Python) ECS container: `task_definition.add_container(id, image=..., entry_point=[...],
command=[...], environment={...})` and `ecs.ContainerDefinition(scope, id, task_definition=...,
image=..., ...)`, the same container as an ECS task definition's (`frontends/yaml/ecs`):
`entry_point` replaces the image's entrypoint, `command` its arguments, `environment` the variables
(`secrets` unknown). The image is known from `ecs.ContainerImage.from_registry("vllm/vllm-openai:...")`;
one built from the tree (`from_asset`) or another repository's has an entrypoint not known here."""

from __future__ import annotations

import ast
from dataclasses import replace
from typing import Iterator

from ....command import WordSyntax, token_elements
from ....launch_context import LaunchContext
from ....model import UNKNOWN, Launch, LaunchKind, Setting, VersionHint
from ....programs import split_launcher
from ....records import record
from ....vllm.command_line import Token
from ....vllm.images import is_vllm_image, release_from_image
from ..strings import python_quote
from .callsites import calls, keyword
from .frames import Frame
from .module import Module
from .reader import Qualified, Reader
from .spawns import item_raw, item_text

_UPLOADS = ("google.cloud.aiplatform.Model.upload", "google.cloud.aiplatform.models.Model.upload")
_REPLAY_SWITCHES = ("--return-sampling-mask", "--return_sampling_mask", "--enable-return-sampling-mask")
WORDS = "serving_container_"
CDK_WORDS = "aws_ecs"
_CDK_CONTAINER = "aws_cdk.aws_ecs.ContainerDefinition"
_CDK_REGISTRY = "aws_cdk.aws_ecs.ContainerImage.from_registry"


@record
class ContainerKeywords:
    """The keywords of a declared container: its image, the entrypoint's replacement, the
    arguments, the environment, and the keywords whose variables are not known."""

    image: str
    command: str
    args: str
    env: str
    secret: str | None = None


_VERTEX = ContainerKeywords(
    "serving_container_image_uri", "serving_container_command", "serving_container_args", "serving_container_environment_variables"
)
_CDK = ContainerKeywords("image", "entry_point", "command", "environment", "secrets")


def uploaded_launches(reader: Reader, module: Module) -> Iterator[Launch]:
    for call in calls(module, (".upload(",)):
        frame = Frame(module, call.scope, call.cls, None, call.placed)
        uploads = reader.evaluate(call.node.func, frame).ref
        if isinstance(uploads, Qualified) and uploads.name in _UPLOADS:
            image_node = keyword(call.node, _VERTEX.image) or (call.node.args[0] if call.node.args else None)
            launch = launch_of(reader, module, call.node, frame, _VERTEX, image_of(reader, image_node, frame))
            if launch is not None:
                yield launch


def cdk_launches(reader: Reader, module: Module) -> Iterator[Launch]:
    """The containers an AWS CDK program adds to an ECS task definition."""
    for call in calls(module, ("add_container(", "ContainerDefinition(")):
        node = call.node
        frame = Frame(module, call.scope, call.cls, None, call.placed)
        image_node = keyword(node, _CDK.image)
        if image_node is None:
            continue
        if isinstance(node.func, ast.Attribute) and node.func.attr == "add_container":
            known = _cdk_image(reader, image_node, frame)
        else:
            made = reader.evaluate(node.func, frame).ref
            known = _cdk_image(reader, image_node, frame) if isinstance(made, Qualified) and made.name == _CDK_CONTAINER else None
        if known is not None:
            launch = launch_of(reader, module, node, frame, _CDK, known)
            if launch is not None:
                yield launch


def image_of(reader: Reader, node: ast.expr | None, frame: Frame) -> tuple[str | None, ast.expr | None]:
    image = reader.evaluate(node, frame).value if node is not None else None
    return (image if isinstance(image, str) else None), node


def _cdk_image(reader: Reader, node: ast.expr, frame: Frame) -> tuple[str | None, ast.expr | None] | None:
    """The repository a CDK container image names (`ContainerImage.from_registry(name)`); None:
    the call is not a CDK ECS container's (its image is not a `ContainerImage`)."""
    if not isinstance(node, ast.Call):
        return None  # not known to be a CDK image (another library's `add_container(image="...")`)
    made = reader.evaluate(node.func, frame).ref
    if not isinstance(made, Qualified) or not made.name.startswith("aws_cdk.aws_ecs.ContainerImage."):
        return None
    if made.name != _CDK_REGISTRY:
        return None, None  # built from the tree or another registry: its entrypoint is not known
    named = keyword(node, "name") or (node.args[0] if node.args else None)
    return image_of(reader, named, frame)


def launch_of(
    reader: Reader,
    module: Module,
    node: ast.Call,
    frame: Frame,
    words: ContainerKeywords,
    known: tuple[str | None, ast.expr | None],
    environment: tuple[dict[str, Setting], bool] | None = None,
) -> Launch | None:
    """The container's launch (`environment`: its variables as the caller read them, else the
    mapping of `words.env`)."""
    image, image_node = known
    command_node, args_node = keyword(node, words.command), keyword(node, words.args)
    command = reader.evaluate(command_node, frame).ref if command_node is not None else ()
    args = reader.evaluate(args_node, frame).ref if args_node is not None else ()
    if not isinstance(command, tuple) or not isinstance(args, tuple):
        return None
    reasons: tuple[str, ...] = ()
    if command:
        items = list(command) + list(args)
        texts = [item_text(item, True) for item in items]
        found = split_launcher(texts, python_unknown_first=True)
        if found is None:
            return None
        entrypoint, after = found
    else:
        items, entrypoint, after = list(args), "serve", 0
        texts = [item_text(item, True) for item in items]
        if image is None or not is_vllm_image(image):
            if not any(text is not None and text.split("=", 1)[0] in _REPLAY_SWITCHES for text in texts):
                return None
            reasons = (f"the entrypoint of image {image or '(not known)'} is not known",)
    tokens = [
        Token(text, item.span or module.span(node), item_raw(reader, item, text), keys=getattr(item, "keys", {}))
        for text, item in zip(texts[after:], items[after:])
    ]  # a `json.dumps(DEFAULTS)` word keeps where each of its keys is written
    release = release_from_image(image) if image is not None else None
    hint = VersionHint((str(release),), f"image {image}", module.span(image_node)) if release is not None and image_node else None
    env, env_open = environment if environment is not None else _environment(reader, node, frame, words)
    label = f"{module.text(node.func)}(...)"
    context = LaunchContext(
        LaunchKind.CLI, env=env, release=release, version_hint=hint, label=label, open_reasons=reasons, env_open=env_open
    )
    from ....frameworks.commands import command_launch  # loaded for a server found only

    syntax = WordSyntax(python_quote('"'), separator=",")
    launch = command_launch(context, module.span(node), tokens, token_elements(tokens, None, ","), syntax, entrypoint)
    return None if launch is None else replace(launch, handle=None)  # no fix: the words may be anywhere


def _environment(reader: Reader, node: ast.Call, frame: Frame, words: ContainerKeywords) -> tuple[dict[str, Setting], bool]:
    """The container's environment: the variables given, and whether others may be set."""
    given = keyword(node, words.env)
    secret = keyword(node, words.secret) is not None if words.secret is not None else False
    if given is None:
        return {}, secret
    read = reader.evaluate(given, frame).kwargs
    if read is None:
        return {}, True
    env = {}
    for name, entry in read.entries.items():
        env[name] = entry.setting if not entry.guards else replace(entry.setting, value=UNKNOWN)
    return env, bool(read.reasons) or secret

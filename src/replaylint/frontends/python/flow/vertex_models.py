"""A Vertex AI model's serving container (google-cloud-aiplatform's `aiplatform.Model.upload(...)`,
GoogleCloudPlatform/vertex-ai-samples' `deploy_model_vllm`): the container runs
`serving_container_command` with `serving_container_args` (the image's entrypoint with the args
when no command is given), in an environment of `serving_container_environment_variables` alone
(the container does not inherit the deploying program's). The words are read as the program
builds them (a list grown under a settings constant, `vllm_args.append(...)`): a `vllm serve`
command line. Without a command, the `vllm/vllm-openai` image runs `vllm serve`; another image's
entrypoint is not known, and its args count only when they name the replay switch (open-ended).
The image's tag is the release evidence of the project's own image."""

from __future__ import annotations

import ast
from dataclasses import replace
from typing import Iterator

from ....command import WordSyntax, token_elements
from ....launch_context import LaunchContext
from ....model import UNKNOWN, Launch, LaunchKind, Setting, VersionHint
from ....programs import split_launcher
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


def uploaded_launches(reader: Reader, module: Module) -> Iterator[Launch]:
    for call in calls(module, (".upload(",)):
        frame = Frame(module, call.scope, call.cls, None, call.placed)
        uploads = reader.evaluate(call.node.func, frame).ref
        if isinstance(uploads, Qualified) and uploads.name in _UPLOADS:
            launch = _launch(reader, module, call.node, frame)
            if launch is not None:
                yield launch


def _launch(reader: Reader, module: Module, node: ast.Call, frame: Frame) -> Launch | None:
    image_node = keyword(node, "serving_container_image_uri") or (node.args[0] if node.args else None)
    image = reader.evaluate(image_node, frame).value if image_node is not None else None
    image = image if isinstance(image, str) else None
    command_node, args_node = keyword(node, "serving_container_command"), keyword(node, "serving_container_args")
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
    tokens = [Token(text, item.span or module.span(node), item_raw(reader, item, text)) for text, item in zip(texts[after:], items[after:])]
    release = release_from_image(image) if image is not None else None
    hint = VersionHint((str(release),), f"image {image}", module.span(image_node)) if release is not None and image_node else None
    env, env_open = _environment(reader, node, frame)
    label = f"{module.text(node.func)}(...)"
    context = LaunchContext(
        LaunchKind.CLI, env=env, release=release, version_hint=hint, label=label, open_reasons=reasons, env_open=env_open
    )
    from ....frameworks.commands import command_launch  # loaded for a server found only

    syntax = WordSyntax(python_quote('"'), separator=",")
    launch = command_launch(context, module.span(node), tokens, token_elements(tokens, None, ","), syntax, entrypoint)
    return None if launch is None else replace(launch, handle=None)  # no fix: the words may be anywhere


def _environment(reader: Reader, node: ast.Call, frame: Frame) -> tuple[dict[str, Setting], bool]:
    """The container's environment: the variables given, and whether others may be set."""
    given = keyword(node, "serving_container_environment_variables")
    if given is None:
        return {}, False
    read = reader.evaluate(given, frame).kwargs
    if read is None:
        return {}, True
    env = {}
    for name, entry in read.entries.items():
        env[name] = entry.setting if not entry.guards else replace(entry.setting, value=UNKNOWN)
    return env, bool(read.reasons)

"""The launch a command line starts, whoever reads its words: vLLM's parser for vLLM's own
launchers (with Dynamo's additions for `python -m dynamo.vllm`), or the adapter of the RL
framework whose launcher `launchers.split_launcher` found (`trl vllm-serve`, verl, NeMo-RL,
SkyRL, OpenRLHF, open-instruct). Every frontend that finds a command line calls `command_launch` here."""

from __future__ import annotations

from typing import Callable, Sequence

from ..command import EnvPlace, WordSyntax, command_launch as vllm_command_launch
from ..edits import Sequence as Elements
from ..launchers import FRAMEWORK_ENTRYPOINTS
from ..model import Launch, LaunchKind, Setting, Span, VersionHint
from ..vllm.argv import ConfigLoader, Token
from ..vllm.releases import Release


def command_launch(
    kind: LaunchKind,
    span: Span,
    tokens: list[Token],
    elements: Elements,
    syntax: WordSyntax,
    env: dict[str, Setting] | None = None,
    env_places: dict[str, EnvPlace] | None = None,
    release: Release | None = None,
    load_config: ConfigLoader | None = None,
    entrypoint: str = "serve",
    open_reasons: Sequence[str] = (),
    version_hint: VersionHint | None = None,
    label: str = "",
    condition: str | None = None,
    read_text: Callable[[str], str | None] | None = None,
) -> Launch | None:
    """`command.command_launch`, for every launcher: None when a framework launcher starts no
    vLLM engine we can see. `read_text` reads a file of the tree (a framework's own entrypoint
    module, `frameworks.skyrl`)."""
    options = dict(
        env=env,
        env_places=env_places,
        release=release,
        load_config=load_config,
        open_reasons=open_reasons,
        version_hint=version_hint,
        label=label,
        condition=condition,
    )
    if entrypoint in FRAMEWORK_ENTRYPOINTS:
        return _framework_launch(kind, span, tokens, elements, syntax, entrypoint, read_text=read_text, **options)
    launch = vllm_command_launch(kind, span, tokens, elements, syntax, entrypoint=entrypoint, **options)
    if entrypoint == "dynamo":
        from . import dynamo

        launch = dynamo.adapt(launch)
    return launch


def _framework_launch(
    kind: LaunchKind, span: Span, tokens: list[Token], elements: Elements, syntax: WordSyntax, entrypoint: str, **options: object
) -> Launch | None:
    read_text = options.pop("read_text", None)
    if entrypoint == "trl":
        from . import trl

        return trl.command_launch(kind, span, tokens, elements, syntax, **options)
    if entrypoint == "verl":
        from . import verl

        return verl.command_launch(span, tokens, **options)
    if entrypoint == "nemo-rl":
        from . import nemo_rl

        return nemo_rl.command_launch(span, tokens, **options)
    if entrypoint == "openrlhf":
        from . import openrlhf

        return openrlhf.command_launch(span, tokens, **options)
    if entrypoint in ("trl-train", "trl-script"):
        from . import trl_colocate

        if entrypoint == "trl-script":
            return trl_colocate.script_launch(span, tokens, read_text=read_text, **options)
        return trl_colocate.command_launch(span, tokens, **options)
    if entrypoint == "open-instruct":
        from . import open_instruct

        return open_instruct.command_launch(span, tokens, read_text=read_text, **options)
    if entrypoint in ("skyrl", "skyrl-module"):
        from . import skyrl

        return skyrl.command_launch(span, tokens, module=entrypoint == "skyrl-module", read_text=read_text, **options)
    raise ValueError(f"not a framework entrypoint: {entrypoint}")

"""SageMaker vLLM images: `SM_VLLM_<NAME>=<value>` environment variables become `vllm serve` flags.

Sources (docs/frameworks-research.md §7): vllm-project/vllm
`examples/online_serving/sagemaker-entrypoint.sh` @ b1a523bf (the `vllm-sagemaker` Docker target),
and the AWS Deep Learning Containers entrypoints. Every variant loops over
`env | grep "^SM_VLLM_"`, names the flag `--` + the rest of the name lowercased with every `_`
turned into `-`, splits each line at the first `=` (`IFS='=' read -r key value`), starts from
`ARGS=(--port 8080)` and never changes a value. They differ on booleans:

- `legacy` (vLLM's `sagemaker-entrypoint.sh`, older DLC scripts): `ARGS+=("--x")` and, when the
  value is not empty, `ARGS+=("$value")`: `SM_VLLM_RETURN_SAMPLING_MASK=true` gives
  `--return-sampling-mask true`, which vLLM's parser rejects;
- `boolean` (newer DLC entrypoints, "# Handle boolean flags: true -> flag only, false -> skip
  entirely"): a value `true` (any case) gives the bare flag, `false` drops the variable.

The words are made here exactly as the entrypoint makes them and `vllm.command_line` judges them, so
`--return-sampling-mask true` is RPL201's stray word. Each word carries the span of its
variable (the value word: of its value). Which variant an image has is not always visible:
vLLM's own script copied into an image (`sagemaker-entrypoint.sh`) is `legacy`; any other
SageMaker image is read as `boolean`, which never reports what only `legacy` rejects. Not seen:
the order `env` lists variables in (it only matters for a flag given twice), `HF_*` options of
the Hugging Face images, `/opt/ml/model`.
"""

from __future__ import annotations

import re
from typing import Any, Mapping

from ..command import WordSyntax, command_launch
from ..edits import Sequence
from ..launch_context import LaunchContext
from ..model import UNKNOWN, Launch, LaunchKind, Setting, Span, VersionHint
from ..vllm.command_line import Token
from ..vllm.releases import Release

PREFIX = "SM_VLLM_"
LEGACY, BOOLEAN = "legacy", "boolean"
# vLLM's example script (the `vllm-sagemaker` target copies it under this name).
_LEGACY_SCRIPTS = frozenset(("sagemaker-entrypoint.sh",))
_SCRIPTS = re.compile(r"^(sagemaker[-_]entrypoint|sagemaker[-_]serve|dockerd[-_]entrypoint)\.sh$")
_IMAGES = re.compile(r"(\.dkr\.ecr\.[^/]+\.amazonaws\.com/|public\.ecr\.aws/deep-learning-containers/)vllm:[^@\s]*sagemaker")


def entrypoint_variant(program: str | None) -> str | None:
    """The variant a container entrypoint script has, from its name (None: not a SageMaker one)."""
    if program is None:
        return None
    name = program.rstrip("/").rsplit("/", 1)[-1]
    if name in _LEGACY_SCRIPTS:
        return LEGACY
    return BOOLEAN if _SCRIPTS.match(name) else None


def is_sagemaker_image(image: str | None) -> bool:
    """An AWS Deep Learning Containers vLLM image for SageMaker (ECR or the public gallery)."""
    return image is not None and _IMAGES.search(image) is not None


def words(env: Mapping[str, Setting], variant: str) -> list[Token]:
    """The arguments the entrypoint passes to `vllm serve` (after `--port 8080`)."""
    tokens: list[Token] = []
    for name, setting in env.items():
        if not name.startswith(PREFIX) or len(name) == len(PREFIX):
            continue
        flag = "--" + name[len(PREFIX) :].lower().replace("_", "-")
        value = setting.value
        if value is UNKNOWN:
            tokens += [Token(flag, setting.span, setting.spelling), Token(None, setting.value_span or setting.span, setting.spelling)]
            continue
        text = "" if value is None else str(value)
        if variant == BOOLEAN and text.lower() == "false":
            continue
        tokens.append(Token(flag, setting.span, setting.spelling))
        if text and not (variant == BOOLEAN and text.lower() == "true"):
            stray = text.lower() in ("true", "false")  # quoted by RPL201 when a switch rejects it
            tokens.append(Token(text, setting.value_span or setting.span, setting.spelling if stray else ""))
    return tokens


def launch(
    env: Mapping[str, Setting],
    variant: str,
    anchor: Span,
    label: str,
    version_hint: VersionHint | None = None,
    open_reasons: tuple[str, ...] = (),
) -> Launch | None:
    """The `vllm serve` launch of a SageMaker container with this environment (None: no
    `SM_VLLM_` variable)."""
    tokens = words(env, variant)
    if not tokens:
        return None
    release = Release.parse(version_hint.releases[-1]) if version_hint is not None and version_hint.releases else None
    others = {name: setting for name, setting in env.items() if name.startswith(("VLLM_", "DYN_"))}
    context = LaunchContext(
        LaunchKind.FRAMEWORK,
        env=others,
        release=release,
        version_hint=version_hint,
        label=f"sagemaker ({variant} entrypoint): {label}",
        open_reasons=open_reasons,
    )
    found = command_launch(context, anchor, tokens, Sequence(()), WordSyntax(str))
    from dataclasses import replace

    return replace(found, handle=None)  # fixes would edit variables, not words


_IMAGE_TAG = re.compile(r"vllm:v?(\d+\.\d+\.\d+)[^\s\"']*sagemaker")


def image_hint(written: str, span: Span) -> VersionHint | None:
    """The release in the tag of an image name as written (the rest may be an f-string)."""
    match = _IMAGE_TAG.search(written)
    return None if match is None else VersionHint((match.group(1),), f"image tag {match.group(0)}", span)


def variant_for(image: str | None, program: str | None) -> str | None:
    """The entrypoint variant of a container: from the script it runs, else from its image."""
    variant = entrypoint_variant(program)
    if variant is not None:
        return variant
    return BOOLEAN if is_sagemaker_image(image) else None


def settings_of(pairs: Mapping[str, tuple[Any, Span, str, Span | None]]) -> dict[str, Setting]:
    """Environment settings from (value, span, spelling, value span) by name (for callers that
    read an `env={...}` literal)."""
    return {name: Setting(name, value, span, spelling, value_span) for name, (value, span, spelling, value_span) in pairs.items()}

"""TRL's trainers that start vLLM in their own process: `trl grpo|rloo|distillation ...`,
`accelerate launch [...] trl/scripts/grpo.py ...`, `torchrun [...] -m trl.scripts.grpo ...`,
`python trl/scripts/grpo.py ...` with `--use_vllm --vllm_mode colocate`.

Source: trl 1.16.0 and 1.10.0 (alike here). `GRPOConfig`, `RLOOConfig` and `DistillationConfig`
have `use_vllm: bool = False` and `vllm_mode: str = "colocate"`; with `use_vllm` and the
colocate mode, `trl/generation/vllm_generation.py` `VLLMGeneration` builds `LLM(model=...,
tensor_parallel_size=..., distributed_executor_backend="external_launcher", ...,
logprobs_mode="processed_logprobs", ...)` in each training process (1.16.0:347-363): the engine
starts in the process the command line starts, so the environment around it (an `export`, a
Kubernetes `env:`, a compose `environment:`) is the engine's, as around `vllm serve`. `trl grpo`
runs the script under `accelerate launch` in a child process, which inherits it too. No flag
of these trainers reaches `return_sampling_mask`.

Followed only when the command line says both (`--use_vllm` or `--use_vllm true`, and
`--vllm_mode colocate`): TRL releases before 1.x defaulted to the server mode, and a
`--config` file may set either. A word we cannot read that is not the value of the option
before it may set them: then no launch. The script's forwarded arguments are judged as absent.
"""

from __future__ import annotations

from typing import Any

from ..model import Launch, LaunchKind, Setting, Span
from ..vllm.argv import Token
from .editions import build
from .trl import EDITIONS

_TRUE = frozenset(("yes", "true", "t", "y", "1"))  # transformers' `string_to_bool`
_FALSE = frozenset(("no", "false", "f", "n", "0"))


def command_launch(span: Span, tokens: list[Token], **options: Any) -> Launch | None:
    """The in-process engine of a TRL training command line, or None (no vLLM, another mode, or
    words we cannot read)."""
    words = [token for token in tokens if not token.forwarded]
    if any(not token.known and not _a_value(words, index) for index, token in enumerate(words)):
        return None
    use_vllm = _option(words, "use_vllm", switch=True)
    mode = _option(words, "vllm_mode")
    if use_vllm is None or str(use_vllm[0]).lower() not in _TRUE or mode is None or mode[0] != "colocate":
        return None
    said = f"{mode[1].raw} (TRL sets logprobs_mode='processed_logprobs')"
    settings = {"logprobs_mode": Setting("logprobs_mode", "processed_logprobs", mode[1].span, said, implied=True)}
    model = _option(words, "model_name_or_path")
    if model is not None:
        settings["model"] = Setting("model", model[0], model[1].span, model[1].raw)
    launch = Launch(
        LaunchKind.FRAMEWORK,
        span,
        settings,
        dict(options.get("env") or {}),
        open_ended=bool(options.get("open_reasons")),
        open_reason=", ".join(options.get("open_reasons") or ()),
        version_hint=options.get("version_hint"),
        condition=options.get("condition"),
        label=f"trl: {options.get('label') or 'training script'} (vLLM colocated)",
    )
    return build(EDITIONS, lambda edition: launch)


def _names(token: Token, field: str) -> tuple[bool, str | None]:
    """Whether an option word names `field` (`--use_vllm`, `--use-vllm`), and its `=value`."""
    text = str(token.text)
    name, eq, inline = text.partition("=")
    return name in (f"--{field}", f"--{field.replace('_', '-')}"), inline if eq else None


def _option(words: list[Token], field: str, switch: bool = False) -> tuple[Any, Token] | None:
    """The value of `field`'s last occurrence and its word (a switch alone is true)."""
    found = None
    for index, token in enumerate(words):
        if not token.known:
            continue
        named, inline = _names(token, field)
        if not named:
            continue
        following = words[index + 1] if index + 1 < len(words) else None
        if inline is not None:
            found = (inline, token)
        elif following is not None and following.known and not str(following.text).startswith("-"):
            if switch and str(following.text).lower() not in _TRUE | _FALSE:
                return None  # HfArgumentParser's string_to_bool refuses it: TRL stops first
            found = (following.text, following)
        elif following is not None and not following.known:
            found = None  # a value we cannot read
        elif switch:
            found = ("true", token)
        else:
            return None  # argparse's error: the option needs a value
    return found


def _a_value(words: list[Token], index: int) -> bool:
    """An unread word right after an option word without `=`: that option's value."""
    if index == 0 or not words[index - 1].known:
        return False
    previous = str(words[index - 1].text)
    return previous.startswith("--") and "=" not in previous

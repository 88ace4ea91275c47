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

Followed only when the command line or its `--config` file (TrlParser's: the command line wins)
says both (`--use_vllm` or `--use_vllm true`, and `--vllm_mode colocate`; `use_vllm: true` and
`vllm_mode: colocate`): TRL releases before 1.x defaulted to the server mode. A `--config` that
cannot be read may set either: then no launch. A word we cannot read that is not the value of the option
before it may set them: then no launch. The script's forwarded arguments are judged as absent.

A program of the user's own under `accelerate launch` or `torchrun` (`script_launch`) is followed
only when the tree holds it and its text says all of it: it imports from `trl`, builds a
`GRPOConfig(...)` or `RLOOConfig(...)`, and writes `use_vllm=True` and `vllm_mode="colocate"`.
"""

from __future__ import annotations

import re
from typing import Any

from ..launch_context import LaunchContext
from ..model import Launch, LaunchKind, Setting, Span
from ..vllm.command_line import Token
from .editions import build
from .nearby import upward
from .trl import EDITIONS

_TRUE = frozenset(("yes", "true", "t", "y", "1"))  # transformers' `string_to_bool`
_FALSE = frozenset(("no", "false", "f", "n", "0"))


_TRAINER_CONFIG = re.compile(r"\b(GRPO|RLOO)Config\s*\(")
_FROM_TRL = re.compile(r"^\s*(from\s+trl(\.[\w.]+)?\s+import|import\s+trl)\b", re.MULTILINE)
_USE_VLLM = re.compile(r"\buse_vllm\s*=\s*True\b")
_COLOCATE = re.compile(r"""\bvllm_mode\s*=\s*["']colocate["']""")


def command_launch(context: LaunchContext, span: Span, tokens: list[Token]) -> Launch | None:
    """The in-process engine of a TRL training command line, or None (no vLLM, another mode, or
    words we cannot read)."""
    words = [token for token in tokens if not token.forwarded]
    if any(not token.known and not a_value(words, index) for index, token in enumerate(words)):
        return None
    config = config_words(words, context.load_config)
    if config is None:
        return None
    use_vllm = option(words, "use_vllm", switch=True) or option(config, "use_vllm", switch=True)
    mode = option(words, "vllm_mode") or option(config, "vllm_mode")
    if use_vllm is None or truth(use_vllm[0]) is not True or mode is None or mode[0] != "colocate":
        return None
    model = option(words, "model_name_or_path")
    return _launch(context, span, mode[1].span, mode[1].raw, model)


def script_launch(context: LaunchContext, span: Span, tokens: list[Token]) -> Launch | None:
    """`accelerate launch train_grpo.py ...`: the engine of a TRL trainer the program builds
    itself, when the tree holds the program and it says so (module docstring)."""
    script = tokens[0] if tokens else None
    if script is None or not script.known or context.read_text is None:
        return None
    text = upward(str(script.text), span.path, context.read_text)
    if text is None or not all(pattern.search(text) for pattern in (_FROM_TRL, _TRAINER_CONFIG, _USE_VLLM, _COLOCATE)):
        return None
    return _launch(context, span, script.span, f"{script.raw} (its GRPO/RLOO trainer: use_vllm=True, vllm_mode='colocate')", None)


def _launch(context: LaunchContext, span: Span, where: Span, what: str, model: tuple[Any, Token] | None) -> Launch:
    said = f"{what} (TRL sets logprobs_mode='processed_logprobs')"
    settings = {"logprobs_mode": Setting("logprobs_mode", "processed_logprobs", where, said, implied=True)}
    if model is not None:
        settings["model"] = Setting("model", model[0], model[1].span, model[1].raw)
    launch = Launch(
        LaunchKind.FRAMEWORK,
        span,
        settings,
        dict(context.env),
        open_reasons=context.open_reasons,
        version_hint=context.version_hint,
        condition=context.condition,
        label=f"trl: {context.label or 'training script'} (vLLM colocated)",
    )
    return build(EDITIONS, lambda edition: launch)


def config_words(words: list[Token], load_config: Any) -> list[Token] | None:
    """The words of a `--config FILE` (TrlParser: its keys are the fields' defaults, the command
    line wins), as vLLM's `--config` reader makes them (`use_vllm: true` is `--use_vllm`); [] without
    one; None when it cannot be read (it may set either field)."""
    for index, token in enumerate(words):
        path = None
        if token.text == "--config" and index + 1 < len(words):
            path = words[index + 1]
        elif str(token.text).startswith("--config="):
            path = Token(str(token.text)[len("--config=") :], token.span, token.raw)
        if path is not None:
            return load_config(path.text, path) if load_config is not None and path.known else None
    return []


def truth(value: Any) -> bool | None:
    """A boolean field's word as transformers' `string_to_bool` reads it (None: it refuses it)."""
    text = str(value).lower()
    return True if text in _TRUE else False if text in _FALSE else None


def _names(token: Token, field: str) -> tuple[bool, str | None]:
    """Whether an option word names `field` (`--use_vllm`, `--use-vllm`), and its `=value`."""
    text = str(token.text)
    name, eq, inline = text.partition("=")
    return name in (f"--{field}", f"--{field.replace('_', '-')}"), inline if eq else None


def option(words: list[Token], field: str, switch: bool = False) -> tuple[Any, Token] | None:
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


def a_value(words: list[Token], index: int) -> bool:
    """An unread word right after an option word without `=`: that option's value."""
    if index == 0 or not words[index - 1].known:
        return False
    previous = str(words[index - 1].text)
    return previous.startswith("--") and "=" not in previous

"""## What it does
Reports a launch that the RL framework starting vLLM rejects itself, before vLLM sees it, with
the framework's own message: NVIDIA Dynamo's `--enable-rl` (or `DYN_ENABLE_RL`) with a logprobs
mode other than `raw_logprobs` or `processed_logprobs`, for example.

## Why is this bad?
The framework stops the worker at start-up. vLLM's own replay checks never run, so its message
would not be the one you see.

## Example
```shell
DYN_ENABLE_RL=1 python -m dynamo.vllm --model Qwen/Qwen3-8B --return-sampling-mask \\
  --logprobs-mode processed_logits
```

## Use instead
```shell
DYN_ENABLE_RL=1 python -m dynamo.vllm --model Qwen/Qwen3-8B --return-sampling-mask
```

## Fix safety
No fix of its own: the replay rules' fixes (RPL003 sets `processed_logprobs`) resolve it too.

## References
- ai-dynamo `dynamo/vllm/main.py` `configure_rl_logprobs_mode`
- hydra-core 1.3 `hydra/_internal/config_loader_impl.py` `_apply_overrides_to_config` (verl's
  overrides: "Could not override ...", "Could not append to config ...")
"""

from __future__ import annotations

from typing import Iterator

from ..model import Launch
from ..vllm.releases import Release
from .base import Invalid, Report, Rule, Valid, says


class FrameworkRejectsLaunch(Rule):
    code = "RPL204"
    name = "framework-rejects-launch"
    summary = "The RL framework that starts vLLM rejects the launch before vLLM sees it"
    since = Release(0, 0)
    vllm_message = "(the framework's own message)"

    def check(self, launch: Launch, release: Release) -> Iterator[Report]:
        for issue in launch.issues:
            if issue.kind == "framework-rejected":
                yield Report(issue.span, f"`{issue.spelling}`", says(issue.detail), speaker=_who(launch))

    VALID = (
        Valid("DYN_ENABLE_RL=1 python -m dynamo.vllm --model m --return-sampling-mask\n", filename="worker.sh"),
        Valid("python -m dynamo.vllm --model m --return-sampling-mask --logprobs-mode processed_logits\n", filename="worker.sh"),
        # Hydra's `+` adds a key verl's configuration does not have
        Valid(
            "python3 -m verl.trainer.main_ppo actor_rollout_ref.rollout.name=vllm actor_rollout_ref.rollout.top_k=50 "
            "actor_rollout_ref.rollout.val_kwargs.top_k=50 actor_rollout_ref.rollout.val_kwargs.temperature=1.0 "
            "+actor_rollout_ref.rollout.engine_kwargs.vllm.return_sampling_mask=True\n",
            filename="train.sh",
        ),
    )
    INVALID = (
        Invalid(
            "DYN_ENABLE_RL=1 python -m dynamo.vllm --model m --return-sampling-mask --logprobs-mode processed_logits\n",
            filename="worker.sh",
            message="--enable-rl requires logprobs_mode=processed_logprobs",
        ),
        # without `+`, Hydra refuses the key before verl starts
        Invalid(
            "python3 -m verl.trainer.main_ppo actor_rollout_ref.rollout.name=vllm "
            "actor_rollout_ref.rollout.engine_kwargs.vllm.return_sampling_mask=True\n",
            filename="train.sh",
            message="Could not override 'actor_rollout_ref.rollout.engine_kwargs.vllm.return_sampling_mask'",
        ),
    )


def _who(launch: Launch) -> str:
    """The launcher, and the framework edition whose code refuses (chosen by the project's pin)."""
    who = launch.label or "the framework"
    framework = launch.framework
    return f"{who} ({framework.name} {framework.edition})" if framework is not None and framework.edition else who

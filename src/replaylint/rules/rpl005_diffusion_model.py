"""## What it does
Flags sampling distribution replay on a diffusion model: a model of a diffusion family vLLM
ships (DiffusionGemma), or any model made one by `hf_overrides` with a `canvas_length`.
`diffusion_config` alone does not make a model a diffusion model and is not flagged.

## Why is this bad?
Diffusion models fill a canvas in parallel steps; there is no per-token nucleus to replay. vLLM
refuses to start: `sampling distribution replay does not support diffusion models`.

## Example
```shell
vllm serve Qwen/Qwen3-8B --return-sampling-mask --logprobs-mode processed_logprobs \\
  --hf-overrides '{"canvas_length": 256}'
```

## Use instead
```shell
vllm serve Qwen/Qwen3-8B --return-sampling-mask --logprobs-mode processed_logprobs
```

## Fix safety
No automatic fix: the model choice is the user's.

## References
- vLLM `ModelConfig.is_diffusion` (`hf_config.canvas_length is not None`)
- vLLM `VllmConfig._verify_sampling_replay_config` (rule R3 of the replay spec)
"""

from __future__ import annotations

from typing import Iterator

from ..model import Launch
from ..vllm import messages
from ..vllm.diffusion import diffusion_cause
from ..vllm.releases import Release
from .base import Invalid, Report, Rule, Valid, quote, sampling_mask, says


class SamplingMaskWithDiffusionModel(Rule):
    code = "RPL005"
    name = "sampling-mask-with-diffusion-model"
    summary = "Sampling distribution replay does not support diffusion models"
    vllm_message = messages.NO_DIFFUSION

    def check(self, launch: Launch, release: Release) -> Iterator[Report]:
        mask = sampling_mask(launch)
        if mask is None:
            return
        diffusion, setting = diffusion_cause(launch)
        if diffusion is True and setting is not None:
            what = "a diffusion model" if setting.name == "model" else "the model a diffusion model"
            verb = "is" if setting.name == "model" else "makes"
            yield Report(setting.span, f"{quote(setting)} {verb} {what}, with {quote(mask)}", says(self.vllm_message), related=(mask.span,))

    VALID = (
        Valid(
            'from vllm import LLM\nLLM("m", return_sampling_mask=True, logprobs_mode="processed_logprobs",\n'
            '    hf_overrides={"rope_theta": 1e6})\n'
        ),
        Valid('from vllm import LLM\nLLM("google/diffusion-gemma-2b", diffusion_config={"steps": 8})\n'),
        Valid(
            'from vllm import LLM\nLLM("m", return_sampling_mask=True, logprobs_mode="processed_logprobs",\n'
            '    diffusion_config={"canvas_length": 64})\n'
        ),
        Valid(
            'from vllm import LLM\nLLM("m", return_sampling_mask=True, logprobs_mode="processed_logprobs",\n'
            '    hf_overrides={"canvas_length": None})\n'
        ),
        # the override sets the config's canvas_length to None: not a diffusion model any more
        Valid(
            'from vllm import LLM\nLLM("google/DiffusionGemma-2b", return_sampling_mask=True,\n'
            '    logprobs_mode="processed_logprobs", hf_overrides={"canvas_length": None})\n'
        ),
    )
    INVALID = (
        Invalid(
            'from vllm import LLM\nLLM("m", return_sampling_mask=True, logprobs_mode="processed_logprobs",\n'
            '    hf_overrides={"canvas_length": 256})\n',
            message=messages.NO_DIFFUSION,
        ),
        Invalid(
            'from vllm import LLM\nLLM("google/DiffusionGemma-2b", return_sampling_mask=True,\n    logprobs_mode="processed_logprobs")\n',
            release="0.28.0",
            message=messages.NO_DIFFUSION,
        ),
    )

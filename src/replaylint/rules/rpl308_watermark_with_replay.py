"""## What it does
Preview rule, off by default (select it with `RPL308`). Flags a launch with sampling
distribution replay and text watermarking (`--watermark-config`, `watermark_config=`), from
vLLM 0.30 on, where watermarking arrived. (`--watermark`, a KV-cache fraction of the scheduler,
is another thing and is not read.)

## Why is this bad?
vLLM accepts both. A watermarked request (every request unless it sends `watermarking=False`,
`sampling_params.py:312`, and always with `enforce`) picks each token with a keyed function of
the preceding `context_width` tokens (`v1/worker/gpu/sample/watermark.py`, Gumbel-max by
default). The choice is still a sample of the distribution per token, but the n samples of a
GRPO group with a shared prefix are correlated through the key, which replay and the group's
advantage estimate assume they are not. It is a preview rule because how much this matters
depends on the recipe.

## Example
```python
LLM("m", return_sampling_mask=True, logprobs_mode="processed_logprobs", watermark_config={"key": 42})
```

## Use instead
```python
LLM("m", return_sampling_mask=True, logprobs_mode="processed_logprobs")
```
or send `watermarking=False` with the training requests (without `enforce`).

## Fix safety
No automatic fix: watermarking is a policy decision.

## References
- vLLM `config/watermarking.py` (`WatermarkConfig`)
- vLLM `config/vllm.py:1296` (`_check_supports_watermarking`)
"""

from __future__ import annotations

from ..model import Setting
from ..vllm.releases import Release
from .base import BesideMaskRule, Invalid, Valid, quote

_ENGINE = 'from vllm import LLM\nLLM("m", return_sampling_mask=True, logprobs_mode="processed_logprobs"{})\n'


class WatermarkWithReplay(BesideMaskRule):
    code = "RPL308"
    name = "watermark-with-replay"
    summary = "Text watermarking correlates the samples a replay trainer treats as independent"
    severity = "warning"
    preview = True
    since = Release(0, 30)
    vllm_message = "(no message: watermarking is accepted)"
    setting = "watermark_config"

    def flags(self, setting: Setting) -> bool:
        return setting.value is not None and not (setting.known and not setting.value)

    def describe(self, setting: Setting, mask: Setting) -> tuple[str, str]:
        return (
            f"{quote(setting)} with {quote(mask)}",
            "picks each token with a keyed function of its context, so the samples of a group that share a prefix are correlated",
        )

    VALID = (
        Valid(_ENGINE.format("")),
        Valid(_ENGINE.format(", watermark_config=None")),
        Valid('from vllm import LLM\nLLM("m", watermark_config={"key": 42})\n'),
        Valid(
            "vllm serve m --return-sampling-mask --logprobs-mode processed_logprobs --enable-scale-out --watermark 0.01\n",
            filename="serve.sh",
        ),
    )
    INVALID = (
        Invalid(_ENGINE.format(', watermark_config={"key": 42}'), message="correlated"),
        Invalid(
            "vllm serve m --return-sampling-mask --logprobs-mode processed_logprobs --enable-scale-out"
            ' --watermark-config \'{"key": 7, "algorithm": "dual_key_gumbel"}\'\n',
            filename="serve.sh",
            release="0.34.0",
            message="keyed function",
        ),
    )

"""## What it does
Flags a launch with sampling distribution replay that also enables trace replay
(`--enable-trace-replay`, `enable_trace_replay=True`), from vLLM 0.29 on, where trace replay
arrived.

## Why is this bad?
vLLM accepts both. A request that carries `trace_decode_token_ids` gets those tokens written
over the sampled ones (`v1/worker/gpu/sample/sampler.py:163-166`), while the mask is taken from
the processed logits, which know nothing of the trace (`sampler.py:198-207`). A forced token
can therefore lie outside the returned mask, with a logprob of -inf (-9999.0 over HTTP,
`entrypoints/scale_out/token_in_token_out/serving.py:113-118`): a trainer that replays the
sample sees an action its own mask says was impossible.

## Example
```shell
vllm serve Qwen/Qwen3-8B --return-sampling-mask --logprobs-mode processed_logprobs \\
  --enable-scale-out --enable-trace-replay
```

## Use instead
```shell
vllm serve Qwen/Qwen3-8B --return-sampling-mask --logprobs-mode processed_logprobs --enable-scale-out
```
and run trace replay on an engine without the mask.

## Fix safety
No automatic fix: a launch that enables trace replay sends traces, which the program must stop
sending first.

## References
- vLLM `v1/worker/gpu/sample/trace_replay.py` (`apply_trace`)
- vLLM `v1/engine/input_processor.py:200-205` (`trace_decode_token_ids` needs `enable_trace_replay`)
"""

from __future__ import annotations

from ..model import Setting
from ..vllm.lax_values import as_bool
from ..vllm.releases import Release
from .base import BesideMaskRule, Invalid, Valid, quote

_ENGINE = 'from vllm import LLM\nLLM("m", return_sampling_mask=True, logprobs_mode="processed_logprobs"{})\n'


class TraceReplayWithSamplingMask(BesideMaskRule):
    code = "RPL305"
    name = "trace-replay-with-sampling-mask"
    summary = "Trace replay forces tokens the sampling mask may not contain"
    severity = "warning"
    since = Release(0, 29)
    vllm_message = "(no message: forced tokens are written after the mask is taken from the logits)"

    setting = "enable_trace_replay"

    def flags(self, setting: Setting) -> bool:
        return as_bool(setting.value) is True

    def describe(self, setting: Setting, mask: Setting) -> tuple[str, str]:
        return (
            f"{quote(setting)} with {quote(mask)}",
            "writes a trace's tokens over the sampled ones, so a forced token can lie outside its mask with logprob -inf "
            "(-9999.0 over HTTP)",
        )

    VALID = (
        Valid(_ENGINE.format(", enable_trace_replay=False")),
        Valid('from vllm import LLM\nLLM("m", enable_trace_replay=True)\n'),
        Valid(_ENGINE.format(", enable_trace_replay=True"), release="0.28.0"),
    )
    INVALID = (
        Invalid(_ENGINE.format(", enable_trace_replay=True"), message="outside its mask"),
        Invalid(
            "vllm serve m --return-sampling-mask --logprobs-mode processed_logprobs --enable-scale-out --enable-trace-replay\n",
            filename="serve.sh",
            release="0.34.0",
            message="--enable-trace-replay",
        ),
    )

"""## What it does
Flags sampling distribution replay together with batch-sharded sampling
(`enable_batch_sharded_sampling` / `--enable-batch-sharded-sampling`).

## Why is this bad?
The batch-sharded gather does not forward sampling masks. From vLLM 0.30 the engine refuses to
start: `Batch-sharded sampling was explicitly enabled via the --enable-batch-sharded-sampling flag, but is not supported in this configuration for the following reason(s): ...; return_sampling_mask is set and the batch-sharded gather does not forward sampling masks.`
In 0.29 there is no error at all: every `sampling_mask` silently comes back empty (`None`) when
sharding is active, which corrupts replay without a trace. That case is a warning.

## Example
```shell
vllm serve Qwen/Qwen3-8B -tp 4 --return-sampling-mask --logprobs-mode processed_logprobs \
  --enable-batch-sharded-sampling
```

## Use instead
```shell
vllm serve Qwen/Qwen3-8B -tp 4 --return-sampling-mask --logprobs-mode processed_logprobs
```

## Fix safety
The fix removes batch-sharded sampling. It is unsafe: sampling throughput with tensor
parallelism changes.

## References
- vLLM `VllmConfig._validate_batch_sharded_sampling` (0.30+), PR #50465 (0.29), PR #53826
"""

from __future__ import annotations

from typing import Iterator

from ..model import Applicability, Fix, Launch, RemoveSetting
from ..vllm import messages
from ..vllm.releases import Release
from ..vllm.values import as_bool
from .base import Invalid, Report, Rule, Valid, quote, sampling_mask, says


class SamplingMaskWithBatchShardedSampling(Rule):
    code = "RPL006"
    name = "sampling-mask-with-batch-sharded-sampling"
    summary = "Batch-sharded sampling drops sampling masks (0.29) or is rejected with them (0.30+)"
    since = Release(0, 29)
    vllm_message = messages.BATCH_SHARDED_PREFIX + "...; " + messages.BATCH_SHARDED_MASK_REASON + "."
    fix_applicability = Applicability.UNSAFE

    def check(self, launch: Launch, release: Release) -> Iterator[Report]:
        mask = sampling_mask(launch)
        sharded = launch.get("enable_batch_sharded_sampling")
        if mask is None or sharded is None or as_bool(sharded.value) is not True:
            return
        fix = Fix(self.fix_applicability, "Remove batch-sharded sampling", (RemoveSetting("enable_batch_sharded_sampling"),))
        if release.series == (0, 29):
            yield Report(
                sharded.span,
                f"{quote(sharded)} with {quote(mask)}: vLLM {{release}} starts, but the batch-sharded gather "
                "drops the masks, so every sampling_mask comes back None",
                fix,
                (mask.span,),
                severity="warning",
            )
        else:
            yield Report(
                sharded.span,
                f"{quote(sharded)} with {quote(mask)}: {says(messages.BATCH_SHARDED_MASK_REASON)}",
                fix,
                (mask.span,),
            )

    VALID = (
        Valid('from vllm import LLM\nLLM("m", return_sampling_mask=True, logprobs_mode="processed_logprobs",\n'
              '    enable_batch_sharded_sampling=False)\n'),
        Valid('from vllm import LLM\nLLM("m", enable_batch_sharded_sampling=True, tensor_parallel_size=2)\n'),
        Valid('from vllm import LLM\nLLM("m", return_sampling_mask=True, logprobs_mode="processed_logprobs",\n'
              '    enable_batch_sharded_sampling=True)\n', release="0.28.0"),
    )
    INVALID = (
        Invalid('from vllm import LLM\nLLM("m", return_sampling_mask=True, logprobs_mode="processed_logprobs",\n'
                '    enable_batch_sharded_sampling=True)\n',
                message=messages.BATCH_SHARDED_MASK_REASON,
                fixed='from vllm import LLM\nLLM("m", return_sampling_mask=True, logprobs_mode="processed_logprobs")\n'),
        Invalid('from vllm import LLM\nLLM("m", return_sampling_mask=True, logprobs_mode="processed_logprobs",\n'
                '    enable_batch_sharded_sampling=True, tensor_parallel_size=4)\n',
                release="0.29.0", message="sampling_mask comes back None"),
    )

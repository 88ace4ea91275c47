"""## What it does
Flags sampling distribution replay together with batch-sharded sampling
(`enable_batch_sharded_sampling` / `--enable-batch-sharded-sampling`).

## Why is this bad?
The batch-sharded gather does not forward sampling masks. From vLLM 0.30 the engine refuses to
start: `Batch-sharded sampling was explicitly enabled via the --enable-batch-sharded-sampling flag, but is not supported in this configuration for the following reason(s): ...; return_sampling_mask is set and the batch-sharded gather does not forward sampling masks.`
(the message lists the other reasons too, such as `tensor_parallel_size is 1, so there is nothing to shard`).
In 0.29 there is no error when sharding is active (tensor parallelism above 1): every
`sampling_mask` silently comes back empty (`None`), which corrupts replay without a trace. That
case is a warning. (With tensor parallelism 1, 0.29 refuses batch-sharded sampling for that
reason alone.)

## Example
```shell
vllm serve Qwen/Qwen3-8B -tp 4 --return-sampling-mask --logprobs-mode processed_logprobs \\
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

from ..model import UNKNOWN, Applicability, Fix, Launch, RemoveSetting
from ..vllm import messages
from ..vllm.lax_values import as_bool, as_int
from ..vllm.releases import Release
from .base import Invalid, Report, Rule, Valid, quote, sampling_mask, says


def _reasons(launch: Launch, release: Release) -> list[str] | None:
    """vLLM's blockers in order, or None when one of them depends on a value we cannot read.

    0.29-0.32 also list adaptive verification, but never next to the mask: R2 stops vLLM first,
    and fixing R2 turns adaptive verification off (or drops speculative decoding).
    """
    tp = as_int(launch.value("tensor_parallel_size", 1))
    seqs = launch.value("max_num_seqs")
    logprobs = as_int(launch.value("max_logprobs", 20))
    if tp is UNKNOWN or logprobs is UNKNOWN or (seqs is not None and as_int(seqs) is UNKNOWN):
        return None
    reasons = []
    if tp <= 1:
        reasons.append(messages.BATCH_SHARDED_TP_REASON)
    elif seqs is not None and as_int(seqs) < tp:
        reasons.append(messages.BATCH_SHARDED_SEQS_REASON.format(seqs=as_int(seqs), tp=tp))
    if logprobs < 0:
        reasons.append(messages.BATCH_SHARDED_LOGPROBS_REASON)
    if release.series >= (0, 30):
        reasons.append(messages.BATCH_SHARDED_MASK_REASON)
    return reasons


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
        reasons = _reasons(launch, release)
        if release.series == (0, 29):
            if reasons:  # 0.29 refuses it for reasons of its own (tensor parallelism 1, ...)
                return
            yield Report(
                sharded.span,
                f"{quote(sharded)} with {quote(mask)}",
                "starts, but the batch-sharded gather drops the masks, so every sampling_mask comes back None",
                fix,
                (mask.span,),
                severity="warning",
            )
            return
        text = messages.BATCH_SHARDED_PREFIX + ("; ".join(reasons) + "." if reasons else "...; " + messages.BATCH_SHARDED_MASK_REASON + ".")
        yield Report(sharded.span, f"{quote(sharded)} with {quote(mask)}", says(text), fix, (mask.span,))

    VALID = (
        Valid(
            'from vllm import LLM\nLLM("m", return_sampling_mask=True, logprobs_mode="processed_logprobs",\n'
            "    enable_batch_sharded_sampling=False)\n"
        ),
        Valid('from vllm import LLM\nLLM("m", enable_batch_sharded_sampling=True, tensor_parallel_size=2)\n'),
        Valid(
            'from vllm import LLM\nLLM("m", return_sampling_mask=True, logprobs_mode="processed_logprobs",\n'
            "    enable_batch_sharded_sampling=True)\n",
            release="0.29.0",
        ),
        Valid(
            'from vllm import LLM\nLLM("m", return_sampling_mask=True, logprobs_mode="processed_logprobs",\n'
            "    enable_batch_sharded_sampling=True)\n",
            release="0.28.0",
        ),
    )
    INVALID = (
        Invalid(
            'from vllm import LLM\nLLM("m", return_sampling_mask=True, logprobs_mode="processed_logprobs",\n'
            "    enable_batch_sharded_sampling=True)\n",
            message=messages.BATCH_SHARDED_PREFIX + messages.BATCH_SHARDED_TP_REASON + "; " + messages.BATCH_SHARDED_MASK_REASON + ".",
            fixed='from vllm import LLM\nLLM("m", return_sampling_mask=True, logprobs_mode="processed_logprobs")\n',
        ),
        Invalid(
            'from vllm import LLM\nLLM("m", return_sampling_mask=True, logprobs_mode="processed_logprobs",\n'
            "    enable_batch_sharded_sampling=True, tensor_parallel_size=4)\n",
            release="0.29.0",
            message="sampling_mask comes back None",
        ),
        Invalid(
            'from vllm import LLM\nLLM("m", return_sampling_mask=True, logprobs_mode="processed_logprobs",\n'
            "    enable_batch_sharded_sampling=True, tensor_parallel_size=4, max_logprobs=-1)\n",
            release="0.31.0",
            message=messages.BATCH_SHARDED_PREFIX
            + messages.BATCH_SHARDED_LOGPROBS_REASON
            + "; "
            + messages.BATCH_SHARDED_MASK_REASON
            + ".",
        ),
        # vLLM judge: speculative decoding (allowed with replay from 0.32) changes no reason.
        Invalid(
            "vllm serve m --return-sampling-mask --logprobs-mode processed_logprobs -tp 2 \\\n"
            '  --enable-batch-sharded-sampling -sc \'{"method": "eagle3", "model": "e3", "num_speculative_tokens": 2}\'\n',
            filename="serve.sh",
            release="0.32.0",
            message=messages.BATCH_SHARDED_PREFIX + messages.BATCH_SHARDED_MASK_REASON + ".",
        ),
    )

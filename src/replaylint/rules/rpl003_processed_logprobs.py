"""## What it does
Flags a launch with sampling distribution replay whose `logprobs_mode` is not
`processed_logprobs`, including a launch that does not set it at all (the default is
`raw_logprobs`).

## Why is this bad?
The mask describes the nucleus the sampler drew from after temperature, top-k and top-p. Raw
logprobs are normalised over the whole vocabulary, so they would not match the mask. vLLM
refuses to start: `sampling distribution replay requires logprobs_mode='processed_logprobs' so that returned logprobs are normalized over the same nucleus as the sampling mask`.
`--return-sampling-mask` on its own therefore always fails.

## Example
```shell
vllm serve Qwen/Qwen3-8B --return-sampling-mask
```

## Use instead
```shell
vllm serve Qwen/Qwen3-8B --return-sampling-mask --logprobs-mode processed_logprobs
```

## Fix safety
The fix sets `logprobs_mode` to `processed_logprobs` (or adds it next to the mask). It is
safe: replay cannot start without it, and the returned logprobs become the ones replay needs.
When the launch is open-ended (`**json.load(f)`, an unknown `$EXTRA_ARGS`) and does not show
`logprobs_mode`, nothing is reported: the missing value may come from there. A script's
forwarded arguments (`"$@"`) are the exception: a launch that names its model is judged as the
script is written, and the message says `(unless the script's arguments set it)`. So are a
Python function's `**kwargs` that no caller in the tree passes (`(when the caller's `**kwargs`
does not set it)`); a caller in the tree is followed instead
(`forwarded-arguments = "open"` in the configuration makes such launches open-ended).

## References
- vLLM `VllmConfig._verify_sampling_replay_config` (rule R5 of the replay spec)
- `vllm serve --logprobs-mode {processed_logits,processed_logprobs,raw_logits,raw_logprobs}`
"""

from __future__ import annotations

from typing import Iterator

from ..model import UNKNOWN, Applicability, Fix, Launch, SetSetting
from ..vllm import messages
from ..vllm.engine_fields import LOGPROBS_MODES
from ..vllm.releases import Release
from .base import Invalid, Report, Rule, Valid, quote, sampling_mask, says

_PROCESSED = "processed_logprobs"


class SamplingMaskRequiresProcessedLogprobs(Rule):
    code = "RPL003"
    name = "sampling-mask-requires-processed-logprobs"
    summary = "Sampling distribution replay needs logprobs_mode='processed_logprobs'"
    vllm_message = messages.REQUIRES_PROCESSED_LOGPROBS
    fix_applicability = Applicability.SAFE

    def check(self, launch: Launch, release: Release) -> Iterator[Report]:
        mask = sampling_mask(launch)
        if mask is None:
            return
        fix = Fix(self.fix_applicability, f"Set logprobs_mode to '{_PROCESSED}'", (SetSetting("logprobs_mode", _PROCESSED),))
        mode = launch.get("logprobs_mode")
        if mode is None:
            if launch.open_ended:
                return
            ignored = next((i for i in launch.issues if i.kind == "ignored-key" and i.name == "logprobs_mode"), None)
            if ignored is not None:
                said = " ".join(ignored.spelling.split())
                message = f"{quote(mask)} with `{said}`, which is ignored ({ignored.detail}), so logprobs_mode defaults to 'raw_logprobs'"
                yield Report(mask.span, message, says(self.vllm_message), fix, related=(ignored.span,), absent=True)
                return
            yield Report(
                mask.span,
                f"{quote(mask)} without logprobs_mode, which defaults to 'raw_logprobs'",
                says(self.vllm_message),
                fix,
                absent=True,
            )
        elif mode.value is not UNKNOWN and mode.value != _PROCESSED and mode.value in LOGPROBS_MODES:
            yield Report(
                mode.value_span or mode.span,
                f"{quote(mode)} with {quote(mask)}",
                says(self.vllm_message),
                fix,
                related=(mask.span,),
            )

    VALID = (
        Valid('from vllm import LLM\nLLM("m", return_sampling_mask=True, logprobs_mode="processed_logprobs")\n'),
        Valid('from vllm import LLM\nLLM("m", logprobs_mode="raw_logprobs")\n'),
        Valid('import json\nfrom vllm import LLM\nLLM("m", return_sampling_mask=True, **json.load(open("engine.json")))\n'),
        Valid('from vllm import LLM\nLLM("m", return_sampling_mask=True, logprobs_mode=MODE)\n'),
        Valid('from sglang import Engine\nEngine(model_path="m", return_sampling_mask=True)\n'),
    )
    INVALID = (
        Invalid(
            'from vllm import LLM\nllm = LLM("m", return_sampling_mask=True)\n',
            message=messages.REQUIRES_PROCESSED_LOGPROBS,
            fixed='from vllm import LLM\nllm = LLM("m", return_sampling_mask=True, logprobs_mode="processed_logprobs")\n',
        ),
        Invalid(
            "from vllm.engine.arg_utils import AsyncEngineArgs as A\n"
            "args = A(\n    model='m',\n    return_sampling_mask=True,\n    logprobs_mode='raw_logits',\n)\n",
            release="0.28.0",
            message=messages.REQUIRES_PROCESSED_LOGPROBS,
            fixed="from vllm.engine.arg_utils import AsyncEngineArgs as A\n"
            "args = A(\n    model='m',\n    return_sampling_mask=True,\n    logprobs_mode='processed_logprobs',\n)\n",
        ),
        Invalid(
            'from vllm import LLM\n\ndef build(**kwargs):\n    return LLM("m", return_sampling_mask=True, **kwargs)\n',
            message="(when the caller's `**kwargs` does not set it)",
            fixed="from vllm import LLM\n\ndef build(**kwargs):\n"
            '    return LLM("m", return_sampling_mask=True, logprobs_mode="processed_logprobs", **kwargs)\n',
        ),
        Invalid(
            'import vllm\nOPTS = {"return_sampling_mask": True}\nvllm.LLM("m", **OPTS)\n',
            message=messages.REQUIRES_PROCESSED_LOGPROBS,
            fixed='import vllm\nOPTS = {"return_sampling_mask": True, "logprobs_mode": "processed_logprobs"}\nvllm.LLM("m", **OPTS)\n',
        ),
    )

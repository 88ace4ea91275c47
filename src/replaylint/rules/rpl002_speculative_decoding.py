"""## What it does
Flags speculative decoding that vLLM refuses next to sampling distribution replay: any
speculative config in vLLM 0.28-0.31, and a speculative config with
`enable_adaptive_verification` true from 0.32 on. The aliases `spec_method`, `spec_model` and
`spec_tokens` create a speculative config too.

## Why is this bad?
Up to 0.31 the replay sampler does not see draft tokens at all:
`sampling distribution replay does not support speculative decoding`. From 0.32 the rejection
sampler emits masks, but only with fixed verification boundaries:
`sampling distribution replay with speculative decoding requires fixed verification boundaries; disable adaptive verification`.

## Example
```shell
vllm serve Qwen/Qwen3-8B --return-sampling-mask --logprobs-mode processed_logprobs \\
  -sc '{"method": "eagle3", "model": "org/eagle3-head", "num_speculative_tokens": 3,
        "enable_adaptive_verification": true}'
```

## Use instead
```shell
vllm serve Qwen/Qwen3-8B --return-sampling-mask --logprobs-mode processed_logprobs \\
  -sc '{"method": "eagle3", "model": "org/eagle3-head", "num_speculative_tokens": 3}'
```
On 0.28-0.31, drop speculative decoding or upgrade to vLLM 0.32.

## Fix safety
From 0.32 the fix sets `enable_adaptive_verification` to false; before, it removes the
speculative config. Both are unsafe: throughput changes, and without speculative decoding
the draft model is no longer used.

## References
- vLLM `VllmConfig._verify_sampling_replay_config` (rules R2a and R2b of the replay spec)
- vLLM PR #54166 (replay with MRV2 MTP speculative decoding)
"""

from __future__ import annotations

from typing import Iterator

from ..model import Applicability, Fix, Launch, RemoveSetting, SetSetting
from ..vllm import messages
from ..vllm.engine_fields import SPEC_ALIASES
from ..vllm.releases import Release
from ..vllm.speculative import speculative
from .base import Invalid, Report, Rule, Valid, quote, sampling_mask, says

_ADAPTIVE = "enable_adaptive_verification"


class SpeculativeDecodingWithSamplingMask(Rule):
    code = "RPL002"
    name = "speculative-decoding-with-sampling-mask"
    summary = "Speculative decoding (0.28-0.31) or adaptive verification (0.32+) with sampling distribution replay"
    vllm_message = messages.NO_SPEC_DECODE
    fix_applicability = Applicability.UNSAFE

    def check(self, launch: Launch, release: Release) -> Iterator[Report]:
        mask = sampling_mask(launch)
        spec = speculative(launch)
        if mask is None or spec.present is not True or spec.setting is None:
            return
        if release.series <= (0, 31):
            names = ("speculative_config", *SPEC_ALIASES)
            remove = tuple(RemoveSetting(name) for name in names if launch.get(name) is not None)
            yield Report(
                spec.setting.span,
                f"{quote(spec.setting)} with {quote(mask)}",
                says(messages.NO_SPEC_DECODE),
                Fix(self.fix_applicability, "Remove speculative decoding", remove),
                related=(mask.span,),
            )
        elif spec.adaptive_verification is True:
            setting = spec.key_setting(_ADAPTIVE)
            assert setting is not None
            # A JSON value an `ENV`/`env:` variable holds is reported where it is written.
            place = spec.key_span(_ADAPTIVE) if setting.via else None
            yield Report(
                place or setting.span,
                f"{_ADAPTIVE} is true in {quote(setting)} with {quote(mask)}",
                says(messages.NO_ADAPTIVE_VERIFICATION),
                Fix(
                    self.fix_applicability,
                    "Disable adaptive verification",
                    (SetSetting(f"speculative_config.{_ADAPTIVE}", False),),
                ),
                related=(mask.span,),
            )

    VALID = (
        Valid(
            'from vllm import LLM\nLLM("m", return_sampling_mask=True, logprobs_mode="processed_logprobs",\n'
            '    speculative_config={"method": "eagle3", "model": "e3", "num_speculative_tokens": 3})\n',
            release="0.32.0",
        ),
        Valid(
            'from vllm import LLM\nLLM("m", return_sampling_mask=True, logprobs_mode="processed_logprobs",\n'
            '    speculative_config={"method": "mtp", "num_speculative_tokens": 1,\n'
            '                        "enable_adaptive_verification": False})\n',
        ),
        Valid('from vllm import LLM\nLLM("m", speculative_config={"method": "ngram", "num_speculative_tokens": 3})\n', release="0.28.0"),
        Valid(
            'from vllm import LLM\nLLM("m", return_sampling_mask=True, logprobs_mode="processed_logprobs",\n    speculative_config=None)\n',
            release="0.30.0",
        ),
    )
    INVALID = (
        Invalid(
            'from vllm import LLM\nLLM("m", return_sampling_mask=True, logprobs_mode="processed_logprobs",\n'
            '    speculative_config={"method": "eagle3", "model": "e3", "num_speculative_tokens": 3})\n',
            release="0.31.0",
            message=messages.NO_SPEC_DECODE,
            fixed='from vllm import LLM\nLLM("m", return_sampling_mask=True, logprobs_mode="processed_logprobs")\n',
        ),
        Invalid(
            'from vllm import LLM\nLLM("m", return_sampling_mask=True, logprobs_mode="processed_logprobs",\n'
            '    spec_method="eagle3", spec_model="e3", spec_tokens=3)\n',
            release="0.29.0",
            message=messages.NO_SPEC_DECODE,
        ),
        Invalid(
            'from vllm import LLM\nLLM("m", return_sampling_mask=True, logprobs_mode="processed_logprobs",\n'
            '    speculative_config={"method": "mtp", "num_speculative_tokens": 1,\n'
            '                        "enable-adaptive-verification": True})\n',
            message=messages.NO_ADAPTIVE_VERIFICATION,
            fixed='from vllm import LLM\nLLM("m", return_sampling_mask=True, logprobs_mode="processed_logprobs",\n'
            '    speculative_config={"method": "mtp", "num_speculative_tokens": 1,\n'
            '                        "enable-adaptive-verification": False})\n',
        ),
    )

"""## What it does
Flags a launch with sampling distribution replay and speculative decoding whose
`rejection_sample_method` is `synthetic` (from vLLM 0.32, the first release with replay and
speculative decoding together) or `fly` (from 0.33, where it arrived).

## Why is this bad?
vLLM accepts both; only adaptive verification is refused (RPL002). `synthetic` accepts a draft
token with a fixed, decaying probability (`synthetic_acceptance_rates`), and `fly` defers
rejections inside an entropy-gated window, keeping draft tokens the target model would have
rejected (`v1/worker/gpu/spec_decode/rejection_sampler_utils.py`, the `SYNTHETIC_MODE` and
`FLY_WINDOW_SIZE` branches; `config/speculative.py:610-618` calls `fly` lossy). The committed
tokens are not drawn from the distribution the mask and the processed logprobs describe, so
replaying them trains on actions the policy did not take with those probabilities.

## Example
```shell
vllm serve Qwen/Qwen3-8B --return-sampling-mask --logprobs-mode processed_logprobs --enable-scale-out \\
  -sc '{"method": "mtp", "num_speculative_tokens": 2, "rejection_sample_method": "fly"}'
```

## Use instead
```shell
vllm serve Qwen/Qwen3-8B --return-sampling-mask --logprobs-mode processed_logprobs --enable-scale-out \\
  -sc '{"method": "mtp", "num_speculative_tokens": 2}'
```

## Fix safety
The fix sets `rejection_sample_method` to `standard`, vLLM's default, where the key has its own
place (a dict literal, a dotted `-sc.rejection_sample_method` word); inside a JSON
word it is left to the user. It is unsafe: acceptance rates, and so throughput, change.

## References
- vLLM `config/speculative.py` (`RejectionSampleMethod`, `rejection_sample_method`)
- vLLM `v1/worker/gpu/spec_decode/rejection_sampler_utils.py`
"""

from __future__ import annotations

from typing import Iterator

from ..model import Applicability, Fix, Launch, SetSetting
from ..vllm.releases import Release
from ..vllm.speculative import speculative
from ..vllm.unusable_masks import LOSSY_VERIFICATION, SPECULATIVE_REPLAY
from .base import Invalid, Report, Rule, Valid, quote, sampling_mask

_KEY = "rejection_sample_method"
_POD = (
    "containers:\n- name: vllm\n  image: vllm/vllm-openai:v0.34.0\n"
    '  args: ["--model", "m", "--return-sampling-mask", "--logprobs-mode", "processed_logprobs", "--enable-scale-out",\n'
    '         "--speculative-config", "JSON"]\n'
)
_SERVE = "vllm serve m --return-sampling-mask --logprobs-mode processed_logprobs --enable-scale-out -sc '{}'\n"


class LossySpeculativeVerification(Rule):
    code = "RPL306"
    name = "lossy-speculative-verification"
    summary = "Synthetic or FLy rejection sampling commits tokens the sampling mask does not describe"
    severity = "warning"
    since = SPECULATIVE_REPLAY
    vllm_message = "(no message: lossy verification is accepted)"
    fix_applicability = Applicability.UNSAFE

    def check(self, launch: Launch, release: Release) -> Iterator[Report]:
        mask = sampling_mask(launch)
        spec = speculative(launch)
        if mask is None or spec.present is not True:
            return
        method = spec.key(_KEY)
        arrived = LOSSY_VERIFICATION.get(method) if isinstance(method, str) else None
        setting, place = spec.key_setting(_KEY), spec.key_span(_KEY)
        if arrived is None or release < arrived or setting is None or place is None:
            return
        yield Report(
            place,
            f"{_KEY} {method!r} in {quote(setting)} with {quote(mask)}",
            "accepts draft tokens without the target distribution, so the committed tokens are not samples of the distribution "
            "the mask describes",
            Fix(self.fix_applicability, "Use standard rejection sampling", (SetSetting(f"speculative_config.{_KEY}", "standard"),)),
            related=(mask.span,),
        )

    VALID = (
        Valid(_SERVE.format('{"method": "mtp", "num_speculative_tokens": 2, "rejection_sample_method": "standard"}'), filename="serve.sh"),
        Valid(
            _SERVE.format('{"method": "mtp", "num_speculative_tokens": 2, "rejection_sample_method": "fly"}'),
            filename="serve.sh",
            release="0.32.0",
        ),
        Valid(
            'vllm serve m -sc \'{"method": "mtp", "num_speculative_tokens": 2, "rejection_sample_method": "synthetic"}\'\n',
            filename="serve.sh",
        ),
    )
    INVALID = (
        Invalid(
            _SERVE.format('{"method": "mtp", "num_speculative_tokens": 2, "rejection_sample_method": "fly"}'),
            filename="serve.sh",
            message="'fly'",
            fixed=_SERVE.format('{"method": "mtp", "num_speculative_tokens": 2, "rejection_sample_method": "standard"}'),
        ),
        Invalid(  # a Kubernetes container's args: the JSON inside a YAML string, its quotes escaped
            _POD.replace("JSON", r"{\"method\": \"mtp\", \"rejection_sample_method\": \"synthetic\"}"),
            filename="pod.yaml",
            release="0.34.0",
            message="'synthetic'",
            fixed=_POD.replace("JSON", r"{\"method\": \"mtp\", \"rejection_sample_method\": \"standard\"}"),
        ),
        Invalid(
            'from vllm import LLM\nLLM("m", return_sampling_mask=True, logprobs_mode="processed_logprobs",\n'
            '    speculative_config={"method": "mtp", "num_speculative_tokens": 1, "rejection_sample_method": "synthetic",\n'
            '                        "synthetic_acceptance_length": 1.5})\n',
            release="0.32.0",
            message="'synthetic'",
            fixed='from vllm import LLM\nLLM("m", return_sampling_mask=True, logprobs_mode="processed_logprobs",\n'
            '    speculative_config={"method": "mtp", "num_speculative_tokens": 1, "rejection_sample_method": "standard",\n'
            '                        "synthetic_acceptance_length": 1.5})\n',
        ),
        Invalid(
            "vllm serve m --return-sampling-mask --logprobs-mode processed_logprobs -sc.method mtp -sc.rejection_sample_method synthetic\n",
            filename="serve.sh",
            message="'synthetic'",
        ),
    )

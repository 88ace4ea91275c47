"""## What it does
Flags a launch that turns on sampling distribution replay (`return_sampling_mask`) and also
passes custom logits processors (`logits_processors` / `--logits-processors`).

## Why is this bad?
A custom logits processor changes the distribution after vLLM computes the sampling mask, so the
replayed mask would not describe what was sampled. vLLM refuses to start:
`sampling distribution replay does not support custom logits processors`.
In 0.28-0.30 the processors also make vLLM fall back to Model Runner V1, so the first error you
see there is RPL004's; this rule still tells you the second one.

## Example
```python
llm = LLM("Qwen/Qwen3-8B", return_sampling_mask=True, logprobs_mode="processed_logprobs",
          logits_processors=["my_pkg.procs:BanWords"])
```

## Use instead
```python
llm = LLM("Qwen/Qwen3-8B", return_sampling_mask=True, logprobs_mode="processed_logprobs")
```
Apply the processor's effect in the trainer instead, or run the rollouts without replay.

## Fix safety
The fix removes the logits processors, and in Python the imports nothing else in the file uses.
It is unsafe: generation changes.

## References
- vLLM `VllmConfig._verify_sampling_replay_config` (rule R4 of the replay spec)
- `vllm serve --logits-processors`
"""

from __future__ import annotations

from typing import Iterator

from ..model import Applicability, Fix, Launch, RemoveSetting
from ..vllm import messages
from ..vllm.releases import Release
from ..vllm.values import is_truthy_list
from .base import Invalid, Report, Rule, Valid, quote, sampling_mask, says


class LogitsProcessorsWithSamplingMask(Rule):
    code = "RPL001"
    name = "logits-processors-with-sampling-mask"
    summary = "Custom logits processors cannot be combined with sampling distribution replay"
    vllm_message = messages.NO_CUSTOM_LOGITS_PROCESSORS
    fix_applicability = Applicability.UNSAFE

    def check(self, launch: Launch, release: Release) -> Iterator[Report]:
        mask = sampling_mask(launch)
        processors = launch.get("logits_processors")
        if mask is None or processors is None or is_truthy_list(processors.value) is not True:
            return
        yield Report(
            processors.span,
            f"{quote(processors)} with {quote(mask)}: {says(self.vllm_message)}",
            Fix(self.fix_applicability, "Remove the logits processors", (RemoveSetting("logits_processors"),)),
            related=(mask.span,),
        )

    VALID = (
        Valid('from vllm import LLM\nLLM("m", return_sampling_mask=True, logprobs_mode="processed_logprobs")\n'),
        Valid('from vllm import LLM\nLLM("m", logits_processors=["a.b:C"])\n'),
        Valid('from vllm import LLM\nLLM("m", return_sampling_mask=True, logprobs_mode="processed_logprobs",\n    logits_processors=[])\n'),
        Valid('from vllm import LLM\nLLM("m", return_sampling_mask=False, logits_processors=["a.b:C"])\n'),
        # vLLM judge: an empty word becomes None, which ModelConfig refuses before the replay rules.
        Valid(
            "vllm serve m --return-sampling-mask --logprobs-mode processed_logprobs --logits-processors ''\n",
            filename="serve.sh",
            release="0.31.0",
        ),
    )
    INVALID = (
        Invalid(
            'from vllm import LLM\nLLM("m", return_sampling_mask=True, logprobs_mode="processed_logprobs",\n'
            '    logits_processors=["a.b:C"])\n',
            message=messages.NO_CUSTOM_LOGITS_PROCESSORS,
            fixed='from vllm import LLM\nLLM("m", return_sampling_mask=True, logprobs_mode="processed_logprobs")\n',
        ),
        Invalid(
            "from vllm import LLM\nfrom procs import BanWords, Keep\nKeep()\n"
            'LLM("m", return_sampling_mask=True, logprobs_mode="processed_logprobs", logits_processors=[BanWords])\n',
            message=messages.NO_CUSTOM_LOGITS_PROCESSORS,
            fixed='from vllm import LLM\nfrom procs import Keep\nKeep()\nLLM("m", return_sampling_mask=True, logprobs_mode="processed_logprobs")\n',
        ),
        Invalid(  # a name the file still mentions (here `__all__`) keeps its import
            'from vllm import LLM\nfrom procs import BanWords\n__all__ = ["BanWords"]\n'
            'LLM("m", return_sampling_mask=True, logprobs_mode="processed_logprobs", logits_processors=[BanWords])\n',
            message=messages.NO_CUSTOM_LOGITS_PROCESSORS,
            fixed='from vllm import LLM\nfrom procs import BanWords\n__all__ = ["BanWords"]\n'
            'LLM("m", return_sampling_mask=True, logprobs_mode="processed_logprobs")\n',
        ),
        Invalid(
            'import vllm as v\nPROCS = ["a.b:C"]\nv.EngineArgs(model="m", return_sampling_mask=1,\n'
            '    logprobs_mode="processed_logprobs", logits_processors=PROCS)\n',
            release="0.28.0",
            message=messages.NO_CUSTOM_LOGITS_PROCESSORS,
        ),
    )

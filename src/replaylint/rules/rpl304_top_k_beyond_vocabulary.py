"""## What it does
Flags a request to an engine with sampling distribution replay whose `top_k` is larger than
any vocabulary (2^18 = 262,144 or more): `SamplingParams(top_k=1_000_000)`,
`top_k=sys.maxsize`-style literals, and a framework's `top_k` setting that reaches vLLM.

## Why is this bad?
The value passes vLLM's replay check (`top_k > 0`), and the sampler then turns every
`top_k` above the vocabulary size into "no top-k"
(`v1/worker/gpu/sample/states.py:49-51`: `if top_k <= 0 or top_k > self.vocab_size:
top_k = self.vocab_size`). The masks become the whole nucleus or the whole vocabulary: the very
size the `top_k > 0` check exists to bound (`sampling distribution replay requires top_k > 0 to
bound sampling mask size, reduce transfer overhead, and avoid potential OOMs`). It is the
obvious way around RPL102, and it defeats it.

2^18 is above every `vocab_size` default of vLLM 0.34.0's own model config classes (the
largest is 250,880) and at or above Gemma 3's 262,144, so a smaller `top_k` is never flagged:
replaylint does not read the model's `config.json`.

## Example
```python
llm.generate(prompts, SamplingParams(temperature=1.0, top_k=1_000_000))
```

## Use instead
```python
llm.generate(prompts, SamplingParams(temperature=1.0, top_k=50))
```

## Fix safety
No automatic fix: the right bound depends on the model and the training recipe.

## References
- vLLM `v1/worker/gpu/sample/states.py` (`SamplingStates.add_request`)
- vLLM `v1/engine/input_processor.py:180-190` (the `top_k > 0` check)
"""

from __future__ import annotations

from typing import Iterator

from ..model import Launch
from ..vllm import messages
from ..vllm.releases import Release
from ..vllm.unusable_masks import BEYOND_EVERY_VOCABULARY, number
from .base import Invalid, Report, Rule, Valid, quote, sampling_mask
from .rpl101_greedy_request import ENGINE


class TopKBeyondVocabulary(Rule):
    code = "RPL304"
    name = "replay-top-k-beyond-vocabulary"
    summary = "A request's top_k is larger than any vocabulary, so vLLM samples without top-k"
    severity = "warning"
    vllm_message = messages.REQUEST_TOP_K

    def check(self, launch: Launch, release: Release) -> Iterator[Report]:
        if sampling_mask(launch) is None:
            return
        for request in launch.requests:
            top_k = request.settings.get("top_k")
            value = number(top_k)
            if top_k is not None and value is not None and value >= BEYOND_EVERY_VOCABULARY:
                yield Report(
                    top_k.span,
                    f"{quote(top_k)} passes the top_k > 0 check, then vLLM {{release}} turns a top_k above the "
                    "vocabulary size into no top-k: the masks are as large as the check exists to prevent",
                    absent=top_k.implied,
                )

    VALID = (
        Valid(ENGINE + 'llm.generate(["hi"], SamplingParams(temperature=1.0, top_k=50))\n'),
        Valid(ENGINE + 'llm.generate(["hi"], SamplingParams(temperature=1.0, top_k=100_000))\n'),
        Valid('from vllm import LLM, SamplingParams\nllm = LLM("m")\nllm.generate(["hi"], SamplingParams(top_k=10**9))\n'),
    )
    INVALID = (
        Invalid(ENGINE + 'llm.generate(["hi"], SamplingParams(temperature=1.0, top_k=1_000_000))\n', message="no top-k"),
        Invalid(ENGINE + 'K = 2147483647\nllm.generate(["hi"], SamplingParams(top_k=K))\n', message="top_k=K"),
        Invalid(
            "actor_rollout_ref:\n  rollout:\n    name: vllm\n    top_k: 1000000\n"
            "    engine_kwargs:\n      vllm:\n        return_sampling_mask: true\n        logprobs_mode: processed_logprobs\n"
            "trainer:\n  val_before_train: false\n",
            filename="verl/ppo_trainer.yaml",
            message="above the vocabulary size",
        ),
    )

"""## What it does
Flags a generate request to an engine with sampling distribution replay whose temperature is
0 or below: `SamplingParams(temperature=0)` passed to `generate`/`chat` of an `LLM` built with
`return_sampling_mask=True` in the same scope, and every `LLM.beam_search` call on such an
engine (beam search samples with temperature 0 unless `BeamSearchParams(temperature=...)`
says otherwise).

## Why is this bad?
Greedy decoding has no sampling distribution to replay. vLLM rejects every such request:
`sampling distribution replay requires temperature > 0` (HTTP 400 from the server, a
`ValueError` from `LLM.generate`).

## Example
```python
llm = LLM("Qwen/Qwen3-8B", return_sampling_mask=True, logprobs_mode="processed_logprobs")
llm.generate(prompts, SamplingParams(temperature=0.0, top_k=20))
```

## Use instead
```python
llm.generate(prompts, SamplingParams(temperature=1.0, top_k=20))
```

## Fix safety
No automatic fix: the sampling temperature is a modelling choice.

## References
- vLLM `vllm/v1/engine/input_processor.py` (request rule Q1 of the replay spec)
"""

from __future__ import annotations

from typing import Iterator

from ..model import UNKNOWN, Launch
from ..vllm import messages
from ..vllm.releases import Release
from .base import Invalid, Report, Rule, Valid, as_number, quote, sampling_mask, says

ENGINE = 'from vllm import LLM, SamplingParams\nllm = LLM("m", return_sampling_mask=True, logprobs_mode="processed_logprobs")\n'


class ReplayRequestGreedy(Rule):
    code = "RPL101"
    name = "replay-request-greedy"
    summary = "A request to a replay engine samples greedily (temperature <= 0)"
    vllm_message = messages.REQUEST_TEMPERATURE

    def check(self, launch: Launch, release: Release) -> Iterator[Report]:
        if sampling_mask(launch) is None:
            return
        for request in launch.requests:
            temperature = request.settings.get("temperature")
            if temperature is None:
                if request.kind == "beam_search" and not request.open_ended:
                    yield Report(request.span, "beam search samples with temperature 0 by default", says(self.vllm_message), absent=True)
                continue
            value = as_number(temperature.value) if temperature.value is not UNKNOWN else None
            if value is not None and value <= 0:
                message = f"{quote(temperature)} in a request to a replay engine", says(self.vllm_message)
                yield Report(temperature.span, *message, absent=temperature.implied)  # a framework's default stands in

    VALID = (
        Valid(ENGINE + 'llm.generate(["hi"], SamplingParams(temperature=0.7, top_k=20))\n'),
        Valid('from vllm import LLM, SamplingParams\nllm = LLM("m")\nllm.generate(["hi"], SamplingParams(temperature=0))\n'),
        Valid(ENGINE + 'llm.generate(["hi"])\n'),
        Valid(ENGINE + 'other.generate(["hi"], SamplingParams(temperature=0))\n'),
    )
    INVALID = (
        Invalid(ENGINE + 'llm.generate(["hi"], SamplingParams(temperature=0, top_k=20))\n', message=messages.REQUEST_TEMPERATURE),
        Invalid(
            ENGINE + "params = SamplingParams(top_k=5, temperature=-1.0)\nllm.chat([], sampling_params=params)\n",
            message=messages.REQUEST_TEMPERATURE,
        ),
        Invalid(
            ENGINE + "from vllm.sampling_params import BeamSearchParams\n"
            'llm.beam_search(["hi"], BeamSearchParams(beam_width=4, max_tokens=16))\n',
            message=messages.REQUEST_TEMPERATURE,
        ),
    )

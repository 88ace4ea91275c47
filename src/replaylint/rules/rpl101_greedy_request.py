"""## What it does
Flags a generate request to an engine with sampling distribution replay whose temperature is
0 or below: `SamplingParams(temperature=0)` passed to `generate`/`chat` of an `LLM` built with
`return_sampling_mask=True` in the same scope, and every `LLM.beam_search` call on such an
engine (beam search samples with temperature 0 unless `BeamSearchParams(temperature=...)`
says otherwise). The requests the tree sends to a replay server it starts are read too (an
OpenAI client's `temperature=`, the `sampling_params` of an `/inference/v1/generate` body, in
the server's file or another one: see RPL301 for how a client is tied to its server).

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
from ..vllm.unusable_masks import number
from .base import Invalid, Report, Rule, Valid, as_number, quote, sampling_mask, says
from .requests_shape import sent_requests

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
        for addressed in sent_requests(launch):
            temperature = addressed.request.settings.get("temperature")
            value = number(temperature)
            if temperature is not None and value is not None and value <= 0:
                subject = f"{quote(temperature)} in a request to {addressed.to}"
                yield Report(temperature.span, subject, says(self.vllm_message), related=addressed.related, absent=temperature.implied)

    VALID = (
        Valid(ENGINE + 'llm.generate(["hi"], SamplingParams(temperature=0.7, top_k=20))\n'),
        Valid('from vllm import LLM, SamplingParams\nllm = LLM("m")\nllm.generate(["hi"], SamplingParams(temperature=0))\n'),
        Valid(ENGINE + 'llm.generate(["hi"])\n'),
        Valid(ENGINE + 'other.generate(["hi"], SamplingParams(temperature=0))\n'),
        Valid(
            "import subprocess, requests\n"
            'subprocess.Popen(["vllm", "serve", "m", "--port", "8001", "--return-sampling-mask", "--logprobs-mode", "processed_logprobs"])\n'
            'requests.post("http://localhost:8002/v1/completions", json={"prompt": "hi", "temperature": 0})\n'
        ),  # another server
    )
    INVALID = (
        Invalid(ENGINE + 'llm.generate(["hi"], SamplingParams(temperature=0, top_k=20))\n', message=messages.REQUEST_TEMPERATURE),
        Invalid(
            "import subprocess, requests\n"
            'subprocess.Popen(["vllm", "serve", "m", "--return-sampling-mask", "--logprobs-mode", "processed_logprobs", "--enable-scale-out"])\n'
            'body = {"token_ids": [1], "sampling_params": {"temperature": 0, "top_k": 1}}\n'
            'requests.post("http://localhost:8000/inference/v1/generate", json=body)\n',
            message='`"temperature": 0` in a request to the replay server started at line 2',
        ),
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

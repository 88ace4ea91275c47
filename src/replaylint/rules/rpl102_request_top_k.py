"""## What it does
Flags a generate request to an engine with sampling distribution replay that does not set
`top_k > 0`: `SamplingParams(...)` without `top_k` (the default 0 means "disabled"), with
`top_k=0` or `top_k=-1`. `LLM.beam_search` never sets `top_k`, so it always fails. A request
the tree sends over HTTP to a replay server it starts is flagged when it sends `top_k` 0 or
below (written, or the default a framework sends: TRL's trainer configs send `top_k=0` unless
told otherwise); one without `top_k` gets the server's default, which the model's
`generation_config.json` may set (RPL307, in preview, says so).

A temperature in (0, 0.01) is not greedy: `SamplingParams.__post_init__` raises it to 0.01
before it looks for a greedy request (`sampling_params.py` 0.34.0:564-572, 0.28.0:476-484), so
its `top_k` stands (the replay spec's "(0, 1e-5) forces top_k to 0" does not happen; RPL309,
in preview, reports the raise).

## Why is this bad?
The mask lists the tokens the sampler could pick; without a top-k bound it may span the whole
vocabulary. vLLM rejects the request:
`sampling distribution replay requires top_k > 0 to bound sampling mask size, reduce transfer overhead, and avoid potential OOMs`.
With an explicit `SamplingParams`, `LLM.generate` does not apply the model's
`generation_config.json` defaults, so the request itself must carry `top_k`.

## Example
```python
llm = LLM("Qwen/Qwen3-8B", return_sampling_mask=True, logprobs_mode="processed_logprobs")
llm.generate(prompts, SamplingParams(temperature=1.0))
```

## Use instead
```python
llm.generate(prompts, SamplingParams(temperature=1.0, top_k=50))
```

## Fix safety
No automatic fix: the right `top_k` depends on the model and the training recipe.

## References
- vLLM `vllm/v1/engine/input_processor.py` (request rule Q2 of the replay spec)
- `SamplingParams.top_k` (default 0; -1 also means disabled)
"""

from __future__ import annotations

from typing import Iterator

from ..model import UNKNOWN, Launch
from ..vllm import messages
from ..vllm.releases import Release
from ..vllm.unusable_masks import number
from .base import Invalid, Report, Rule, Valid, as_number, quote, sampling_mask, says
from .requests_shape import sent_requests
from .rpl101_greedy_request import ENGINE


class ReplayRequestWithoutTopK(Rule):
    code = "RPL102"
    name = "replay-request-without-top-k"
    summary = "A request to a replay engine does not bound top_k"
    vllm_message = messages.REQUEST_TOP_K

    def check(self, launch: Launch, release: Release) -> Iterator[Report]:
        if sampling_mask(launch) is None:
            return
        for request in launch.requests:
            if request.kind == "beam_search":
                yield Report(request.span, "beam search never sets top_k", says(self.vllm_message))
                continue
            top_k = request.settings.get("top_k")
            if top_k is None:
                if not request.open_ended:
                    message = "the request does not set top_k, which defaults to 0", says(self.vllm_message)
                    yield Report(request.span, *message, absent=True)
            elif top_k.value is not UNKNOWN and (value := as_number(top_k.value)) is not None and value <= 0:
                message = f"{quote(top_k)} in a request to a replay engine", says(self.vllm_message)
                yield Report(top_k.span, *message, absent=top_k.implied)  # a framework's default stands in
        for addressed in sent_requests(launch):
            top_k = addressed.request.settings.get("top_k")
            value = number(top_k)
            if top_k is not None and value is not None and value <= 0:
                subject = f"{quote(top_k)} in a request to {addressed.to}"
                yield Report(top_k.span, subject, says(self.vllm_message), related=addressed.related, absent=top_k.implied)

    VALID = (
        Valid(ENGINE + 'llm.generate(["hi"], SamplingParams(temperature=0.7, top_k=20))\n'),
        Valid(ENGINE + 'llm.generate(["hi"], SamplingParams(temperature=1e-6, top_k=50))\n'),  # raised to 0.01, not greedy
        Valid('from vllm import LLM, SamplingParams\nllm = LLM("m")\nllm.generate(["hi"], SamplingParams())\n'),
        Valid(ENGINE + 'llm.generate(["hi"], SamplingParams(**cfg))\n'),
        Valid(ENGINE + 'llm.generate(["hi"], SamplingParams(top_k=K))\n'),
        Valid(
            "import subprocess, requests\n"
            'subprocess.Popen(["vllm", "serve", "m", "--return-sampling-mask", "--logprobs-mode", "processed_logprobs", "--enable-scale-out"])\n'
            'body = {"token_ids": [1], "sampling_params": {"temperature": 1.0}}\n'
            'requests.post("http://localhost:8000/inference/v1/generate", json=body)\n'
        ),  # without top_k: the server's default (the model's generation config may set one)
    )
    INVALID = (
        Invalid(ENGINE + 'llm.generate(["hi"], SamplingParams(temperature=1.0))\n', message=messages.REQUEST_TOP_K),
        Invalid(ENGINE + 'llm.generate(["hi"], SamplingParams(top_k=-1))\n', message=messages.REQUEST_TOP_K),
        Invalid(
            "import subprocess, requests\n"
            'subprocess.Popen(["vllm", "serve", "m", "--return-sampling-mask", "--logprobs-mode", "processed_logprobs", "--enable-scale-out"])\n'
            'body = {"token_ids": [1], "sampling_params": {"temperature": 1.0, "top_k": -1}}\n'
            'requests.post("http://localhost:8000/inference/v1/generate", json=body)\n',
            message='`"top_k": -1` in a request to the replay server started at line 2',
        ),
        Invalid(
            ENGINE + "from vllm.sampling_params import BeamSearchParams\n"
            'llm.beam_search(["hi"], BeamSearchParams(beam_width=4, max_tokens=16, temperature=0.5))\n',
            message=messages.REQUEST_TOP_K,
        ),
    )

"""## What it does
Preview rule, off by default (select it with `RPL309`). Flags a request to an engine with
sampling distribution replay whose temperature is above 0 and below 0.01: `SamplingParams`, and
the requests the tree sends to a replay server it starts (an OpenAI client's `temperature=`, HTTP
bodies), and the temperature a replay server's `--override-generation-config` makes the default of every request the server renders (`/v1/completions/render`, `/v1/chat/completions/render` and
the other render endpoints build the `/inference/v1/generate` bodies that carry the mask,
`entrypoints/scale_out/render/serving.py:107-178`); a body the client writes itself takes only
`max_tokens` from it (`token_in_token_out/serving.py:386-397`).

## Why is this bad?
vLLM raises such a temperature to 0.01 and says so only in its log
(`sampling_params.py:564-572`): `temperature 0.005 is less than 0.01, which may cause numerical
errors nan or inf in tensors. We have maxed it out to 0.01.` The masks and processed logprobs
describe softmax(logits / 0.01); a trainer that rebuilds the distribution with the temperature
it sent uses another one. It is a preview rule because such temperatures are rare in training.

## Example
```python
llm.generate(prompts, SamplingParams(temperature=0.005, top_k=20))
```

## Use instead
```python
llm.generate(prompts, SamplingParams(temperature=0.01, top_k=20))
```

## Fix safety
No automatic fix: the trainer's temperature must change with the request's.

## References
- vLLM `sampling_params.py:33` (`_MAX_TEMP = 1e-2`) and `SamplingParams.__post_init__`
"""

from __future__ import annotations

from ..model import Launch, Setting
from ..vllm import messages
from ..vllm.unusable_masks import MIN_TEMPERATURE, number
from .base import Invalid, Valid, quote, says
from .requests_shape import RequestFieldRule
from .rpl101_greedy_request import ENGINE


class TemperatureRaised(RequestFieldRule):
    code = "RPL309"
    name = "replay-temperature-raised"
    summary = "A temperature between 0 and 0.01 is raised to 0.01 with only a log line"
    severity = "warning"
    preview = True
    vllm_message = messages.SMALL_TEMPERATURE
    field = "temperature"

    def flags(self, setting: Setting, launch: Launch) -> bool:
        value = number(setting)
        return value is not None and 0 < value < MIN_TEMPERATURE

    def describe(self, setting: Setting, to: str, launch: Launch) -> tuple[str, str]:
        value = " or ".join(str(choice.value) for choice in setting.choices) if setting.choices else setting.value
        return f"{quote(setting)} in a request to {to}", says(self.vllm_message.format(value=value))

    VALID = (
        Valid(ENGINE + 'llm.generate(["hi"], SamplingParams(temperature=0.01, top_k=20))\n'),
        Valid(ENGINE + 'llm.generate(["hi"], SamplingParams(temperature=0.7, top_k=20))\n'),
        Valid('from vllm import LLM, SamplingParams\nllm = LLM("m")\nllm.generate(["hi"], SamplingParams(temperature=0.001))\n'),
    )
    INVALID = (
        Invalid(ENGINE + 'llm.generate(["hi"], SamplingParams(temperature=0.005, top_k=20))\n', message="maxed it out to 0.01"),
        Invalid(
            "vllm serve m --return-sampling-mask --logprobs-mode processed_logprobs --override-generation-config.temperature 0.005\n",
            filename="serve.sh",
            message="makes it the default of every request the server renders",
        ),
        Invalid(
            "import subprocess\nfrom openai import OpenAI\n"
            'subprocess.Popen(["vllm", "serve", "m", "--return-sampling-mask", "--logprobs-mode", "processed_logprobs", "--enable-scale-out"])\n'
            'client = OpenAI(base_url="http://localhost:8000/v1", api_key="EMPTY")\n'
            'client.completions.create(model="m", prompt="hi", temperature=0.005, extra_body={"top_k": 20})\n',
            message="`temperature=0.005` in a request to the replay server started at line 3",
        ),
    )

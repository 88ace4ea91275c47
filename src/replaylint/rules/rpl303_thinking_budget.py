"""## What it does
Flags a request to an engine with sampling distribution replay that sets
`thinking_token_budget` (other than -1, which vLLM reads as no budget): `SamplingParams(
thinking_token_budget=...)` passed to `generate`/`chat` of an `LLM` built with
`return_sampling_mask=True`, and the requests the tree sends to a replay server it starts
(`extra_body={"thinking_token_budget": ...}` of an OpenAI client, `sampling_params` of an
`/inference/v1/generate` body).

## Why is this bad?
When the budget runs out, vLLM forces the end-of-reasoning marker: it sets that token's logit
to 1e9 (`v1/worker/gpu/sample/thinking_budget.py:364-365`) after the penalties and before
temperature and top-k/top-p (`v1/worker/gpu/sample/sampler.py:257-271`). The mask then holds
the marker with a processed logprob of about 0, which says nothing about the policy: a trainer
that replays it learns a step the model never chose. (Without `--reasoning-parser` or
`--reasoning-config`, vLLM rejects the request instead: `thinking_token_budget is set but
reasoning_config is not configured`, `v1/engine/input_processor.py:191-199`; an engine whose words
are all known and name neither is reported with that message.)

## Example
```python
llm = LLM("Qwen/Qwen3-8B", return_sampling_mask=True, logprobs_mode="processed_logprobs",
          reasoning_parser="qwen3")
llm.generate(prompts, SamplingParams(top_k=50, thinking_token_budget=1024))
```

## Use instead
```python
llm.generate(prompts, SamplingParams(top_k=50, max_tokens=4096))
```
and drop the forced positions (or the whole sample) from the replayed loss if a budget is
needed.

## Fix safety
No automatic fix: the budget bounds the cost of a rollout, which only the user can trade.

## References
- vLLM `v1/worker/gpu/sample/thinking_budget.py` (`ThinkingBudgetState`)
- vLLM `sampling_params.py:431` (`thinking_token_budget`), `65-85` (`-1` for unlimited: None)
"""

from __future__ import annotations

from ..model import Launch, Setting
from ..vllm.unusable_masks import BUDGET_WITHOUT_REASONING, without_reasoning
from .base import Invalid, Valid, quote, says
from .requests_shape import Reads, RequestFieldRule
from .rpl101_greedy_request import ENGINE

UNLIMITED = -1
_REASONING = ENGINE.replace('logprobs_mode="processed_logprobs"', 'logprobs_mode="processed_logprobs", reasoning_parser="qwen3"')
_SERVER = (
    "import subprocess\nfrom openai import OpenAI\n\n"
    'subprocess.Popen(["vllm", "serve", "Qwen/Qwen3-8B", "--return-sampling-mask", "--logprobs-mode", "processed_logprobs",\n'
    '                  "--enable-scale-out", "--reasoning-parser", "qwen3", "--port", "8001"])\n'
    'client = OpenAI(base_url="http://localhost:8001/v1", api_key="EMPTY")\n'
    'client.chat.completions.create(model="m", messages=[], extra_body={{"top_k": 20, "thinking_token_budget": {budget}}})\n'
)


class ThinkingBudgetWithReplay(RequestFieldRule):
    code = "RPL303"
    name = "thinking-budget-with-replay"
    summary = "A thinking budget forces the end-of-reasoning token, whose replayed logprob is not the policy's"
    severity = "warning"
    vllm_message = "(no message: the end marker's logit is set to 1e9)"
    field = "thinking_token_budget"
    reads = Reads.SENT

    def flags(self, setting: Setting, launch: Launch) -> bool:
        # `validate_thinking_token_budget` (`sampling_params.py:76-77`): -1 is "unlimited", None.
        return setting.known and setting.value is not None and setting.value != UNLIMITED

    def describe(self, setting: Setting, to: str, launch: Launch) -> tuple[str, str]:
        if without_reasoning(launch):  # refused before any token is sampled
            return f"{quote(setting)} in a request to {to}, which has no --reasoning-parser or --reasoning-config", says(
                BUDGET_WITHOUT_REASONING
            )
        return (
            f"{quote(setting)} in a request to {to}",
            "forces the end-of-reasoning token when the budget runs out (its logit set to 1e9 before temperature and top-k), "
            "so its replayed logprob is about 0 whatever the policy says",
        )

    VALID = (
        Valid(ENGINE + 'llm.generate(["hi"], SamplingParams(top_k=20, thinking_token_budget=None))\n'),
        Valid('from vllm import LLM, SamplingParams\nllm = LLM("m")\nllm.generate(["hi"], SamplingParams(thinking_token_budget=512))\n'),
        Valid(ENGINE + 'llm.generate(["hi"], SamplingParams(top_k=20, max_tokens=512))\n'),
        Valid(_REASONING + 'llm.generate(["hi"], SamplingParams(top_k=20, thinking_token_budget=-1))\n'),  # unlimited
        Valid(_SERVER.format(budget=-1)),
        Valid(_SERVER.format(budget=512).replace("localhost:8001", "localhost:8002")),  # not the replay server
    )
    INVALID = (
        Invalid(
            _REASONING + 'llm.generate(["hi"], SamplingParams(top_k=20, thinking_token_budget=1024))\n', message="end-of-reasoning token"
        ),
        Invalid(
            _REASONING
            + "BUDGET = 0\nparams = SamplingParams(top_k=20, thinking_token_budget=BUDGET)\nllm.chat([], sampling_params=params)\n",
            message="thinking_token_budget=BUDGET",
        ),
        Invalid(
            ENGINE + 'llm.generate(["hi"], SamplingParams(top_k=20, thinking_token_budget=1024))\n',
            message="reasoning_config is not configured",
        ),
        Invalid(_SERVER.format(budget=2048), message="to the replay server started at line 4"),
    )

# Imitates volcengine/verl verl/experimental/agent_loop/ with an `AsyncLLM.from_engine_args`
# engine and a request made in an async method.
import asyncio

from vllm import AsyncEngineArgs, SamplingParams
from vllm.v1.engine.async_llm import AsyncLLM


class Rollout:
    def __init__(self, model):
        args = AsyncEngineArgs(model=model, return_sampling_mask=True, logprobs_mode="processed_logprobs")
        self.engine = AsyncLLM.from_engine_args(args)

    async def generate(self, prompt, request_id):
        sampling_params = SamplingParams(temperature=0.7, top_p=0.9, max_tokens=512)  # expect: RPL102
        final = None
        async for out in self.engine.generate(prompt, sampling_params, request_id):
            final = out
        return final


async def main():
    rollout = Rollout("Qwen/Qwen2.5-Math-1.5B")
    await rollout.generate("1 + 1 =", "r0")


asyncio.run(main())

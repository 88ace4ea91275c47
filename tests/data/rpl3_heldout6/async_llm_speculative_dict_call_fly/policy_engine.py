import asyncio
import uuid

from vllm import SamplingParams
from vllm.engine.arg_utils import AsyncEngineArgs
from vllm.v1.engine.async_llm import AsyncLLM

engine_args = AsyncEngineArgs(
    model="Qwen/Qwen3-8B",
    return_sampling_mask=True,
    logprobs_mode="processed_logprobs",
    speculative_config=dict(
        method="ngram",
        num_speculative_tokens=4,
        prompt_lookup_max=5,
        rejection_sample_method="fly",
        fly_window_size=2,
    ),
)
engine = AsyncLLM.from_engine_args(engine_args)
params = SamplingParams(temperature=1.0, top_k=40, max_tokens=2048, logprobs=0)


async def rollout(prompt: str) -> dict:
    final = None
    async for out in engine.generate(prompt, params, request_id=str(uuid.uuid4())):
        final = out
    sample = final.outputs[0]
    return {"token_ids": list(sample.token_ids), "mask": sample.sampling_mask}


async def main(prompts: list[str]) -> list[dict]:
    return await asyncio.gather(*(rollout(p) for p in prompts))

# Imitates PrimeIntellect-ai/verifiers verifiers/inference/backends/vllm_policy.py: an in-process AsyncLLM whose requests,
# sent concurrently with asyncio.gather, all sample with a bounded top_k.
import asyncio
import uuid

from vllm import AsyncEngineArgs, SamplingParams
from vllm.v1.engine.async_llm import AsyncLLM

ENGINE_KW = dict(model="willcb/Qwen3-1.7B", return_sampling_mask=True, logprobs_mode="processed_logprobs")
REQUEST_KW = dict(temperature=0.8, top_k=40, max_tokens=256)


async def complete(engine: AsyncLLM, prompt: str, **overrides) -> str:
    params = SamplingParams(**{**REQUEST_KW, **overrides})
    final = None
    async for output in engine.generate(prompt, params, request_id=str(uuid.uuid4())):
        final = output
    return final.outputs[0].text


async def main() -> None:
    engine = AsyncLLM.from_engine_args(AsyncEngineArgs(**ENGINE_KW))
    await asyncio.gather(complete(engine, "a"), complete(engine, "b", temperature=1.1))


if __name__ == "__main__":
    asyncio.run(main())

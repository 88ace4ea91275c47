# Imitates PrimeIntellect-ai/verifiers verifiers/inference/backends/vllm_policy.py (an in-process AsyncLLM driven with
# asyncio): AsyncLLM.from_engine_args(AsyncEngineArgs(**kw)).
import asyncio
import uuid

from vllm import AsyncEngineArgs, SamplingParams
from vllm.v1.engine.async_llm import AsyncLLM

ENGINE_KW = dict(
    model="willcb/Qwen3-1.7B",
    return_sampling_mask=True,
    logprobs_mode="processed_logprobs",
    max_num_seqs=64,
)


async def complete(engine: AsyncLLM, prompt: str) -> str:
    params = SamplingParams(temperature=1.0, max_tokens=256, logprobs=0)  # expect: RPL102
    final = None
    async for output in engine.generate(prompt, params, request_id=str(uuid.uuid4())):
        final = output
    return final.outputs[0].text


async def main() -> None:
    engine = AsyncLLM.from_engine_args(AsyncEngineArgs(**ENGINE_KW))
    texts = await asyncio.gather(*(complete(engine, p) for p in ["a", "b", "c"]))
    print(texts)


if __name__ == "__main__":
    asyncio.run(main())

# Imitates vllm-project/vllm examples/offline_inference/async_llm_streaming.py, with an
# `AsyncLLMEngine.from_engine_args` engine driven by `asyncio.run`.
import asyncio
import uuid

from vllm import AsyncEngineArgs, AsyncLLMEngine, SamplingParams

engine_args = AsyncEngineArgs(
    model="Qwen/Qwen3-0.6B",
    return_sampling_mask=True,
    logprobs_mode="processed_logprobs",
    enforce_eager=True,
)
engine = AsyncLLMEngine.from_engine_args(engine_args)


async def main():
    params = SamplingParams(n=8, temperature=1.0, top_k=64, max_tokens=256)
    async for output in engine.generate("Why is the sky blue?", params, request_id=str(uuid.uuid4())):
        print(output.outputs[0].text)


if __name__ == "__main__":
    asyncio.run(main())

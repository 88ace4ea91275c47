# Imitates vllm-project/guidellm src/guidellm/backends/vllm_python/vllm.py (AsyncEngineArgs(**vllm_config),
# AsyncLLMEngine.from_engine_args) and its scheduler sending requests concurrently, here with asyncio.gather.
import asyncio

from settings import DEFAULT_VLLM_CONFIG, deep_update
from vllm import SamplingParams
from vllm.engine.arg_utils import AsyncEngineArgs
from vllm.engine.async_llm_engine import AsyncLLMEngine

USER_BACKEND_KWARGS = {
    "return_sampling_mask": True,
    "logprobs_mode": "processed_logprobs",
    "speculative_config": {"enable_adaptive_verification": False},
}


async def one_request(engine, prompt: str, index: int):
    params = SamplingParams(temperature=0.7, top_p=0.9, top_k=20, max_tokens=128)
    async for output in engine.generate(prompt, params, f"req-{index}"):
        final = output
    return final


async def main():
    vllm_config = deep_update(DEFAULT_VLLM_CONFIG, USER_BACKEND_KWARGS)
    engine = AsyncLLMEngine.from_engine_args(AsyncEngineArgs(model="Qwen/Qwen3-0.6B", **vllm_config))
    prompts = ["Hello", "Summarize PagedAttention.", "Write a haiku."]
    await asyncio.gather(*(one_request(engine, p, i) for i, p in enumerate(prompts)))


if __name__ == "__main__":
    asyncio.run(main())

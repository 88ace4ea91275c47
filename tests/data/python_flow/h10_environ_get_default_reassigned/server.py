# Imitates PrimeIntellect-ai/prime-rl src/prime_rl/inference/vllm/server.py (the engine started after the environment is set)
import asyncio

from env_setup import setup_vllm_env


async def serve(model: str):
    setup_vllm_env()
    from vllm import AsyncEngineArgs
    from vllm.v1.engine.async_llm import AsyncLLM

    engine_args = AsyncEngineArgs(
        model=model,
        max_model_len=8192,
        gpu_memory_utilization=0.9,
        return_sampling_mask=True,
        logprobs_mode="processed_logprobs",
    )
    engine = AsyncLLM.from_engine_args(engine_args)
    return engine


if __name__ == "__main__":
    asyncio.run(serve("PrimeIntellect/Qwen3-0.6B-Reverse-Text-SFT"))

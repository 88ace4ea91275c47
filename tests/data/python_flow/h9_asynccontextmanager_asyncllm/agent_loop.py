# Imitates inclusionAI/AReaL areal/engine/vllm_remote.py / NovaSky-AI/SkyRL AsyncVLLMInferenceEngine (AsyncLLM behind an async context manager)
import asyncio
from contextlib import asynccontextmanager

from vllm import SamplingParams
from vllm.engine.arg_utils import AsyncEngineArgs
from vllm.v1.engine.async_llm import AsyncLLM


@asynccontextmanager
async def replay_engine(model: str, **overrides):
    engine_args = AsyncEngineArgs(
        model=model,
        return_sampling_mask=True,
        logprobs_mode="processed_logprobs",
        **overrides,
    )
    engine = AsyncLLM.from_engine_args(engine_args)
    try:
        yield engine
    finally:
        engine.shutdown()


async def main() -> str:
    async with replay_engine("Qwen/Qwen3-1.7B", max_model_len=4096) as engine:
        params = SamplingParams(temperature=0.9, max_tokens=512)  # expect: RPL102
        final = None
        async for out in engine.generate("Prove that sqrt(2) is irrational.", params, request_id="r0"):
            final = out
    return final.outputs[0].text


if __name__ == "__main__":
    print(asyncio.run(main()))

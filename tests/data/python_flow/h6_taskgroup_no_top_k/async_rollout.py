# Imitates vllm-project/vllm/examples/offline_inference/async_llm_streaming.py (AsyncLLM from engine
# args), the rollouts sent concurrently under an asyncio.TaskGroup with one module-level SamplingParams
import asyncio

from vllm import SamplingParams
from vllm.engine.arg_utils import AsyncEngineArgs
from vllm.sampling_params import RequestOutputKind
from vllm.v1.engine.async_llm import AsyncLLM

ENGINE_ARGS = AsyncEngineArgs(
    model="Qwen/Qwen3-0.6B",
    return_sampling_mask=True,
    logprobs_mode="processed_logprobs",
    enforce_eager=True,
)
ROLLOUT_PARAMS = SamplingParams(  # expect: RPL102
    temperature=0.9,
    top_p=0.95,
    max_tokens=512,
    output_kind=RequestOutputKind.FINAL_ONLY,
)


async def rollout_one(engine: AsyncLLM, prompt: str, index: int):
    final = None
    async for output in engine.generate(prompt, ROLLOUT_PARAMS, request_id=f"rollout-{index}"):
        final = output
    return final


async def main(prompts: list[str]) -> list:
    engine = AsyncLLM.from_engine_args(ENGINE_ARGS)
    try:
        async with asyncio.TaskGroup() as group:
            tasks = [group.create_task(rollout_one(engine, prompt, i)) for i, prompt in enumerate(prompts)]
        return [task.result() for task in tasks]
    finally:
        engine.shutdown()


if __name__ == "__main__":
    asyncio.run(main(["What is RL?", "Explain PPO."]))

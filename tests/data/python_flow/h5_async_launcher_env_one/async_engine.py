# Imitates OpenRLHF/OpenRLHF/openrlhf/trainer/ray/vllm_engine_async.py (the environment set in a launcher before AsyncLLMEngine.from_engine_args)
import asyncio
import os
import uuid

from vllm import SamplingParams
from vllm.engine.arg_utils import AsyncEngineArgs
from vllm.engine.async_llm_engine import AsyncLLMEngine


def configure_runtime() -> None:
    os.environ["VLLM_ALLOW_INSECURE_SERIALIZATION"] = "1"
    os.environ["VLLM_USE_V2_MODEL_RUNNER"] = "1"  # expect: RPL206


def launch_engine(model: str) -> AsyncLLMEngine:
    configure_runtime()
    engine_args = AsyncEngineArgs(
        model=model,
        return_sampling_mask=True,
        logprobs_mode="processed_logprobs",
        max_num_seqs=128,
    )
    return AsyncLLMEngine.from_engine_args(engine_args)


async def rollout(engine: AsyncLLMEngine, prompt: str):
    params = SamplingParams(temperature=1.0, top_k=64, max_tokens=512, logprobs=1)
    final = None
    async for output in engine.generate(prompt, params, request_id=str(uuid.uuid4())):
        final = output
    return final


async def main() -> None:
    engine = launch_engine("Qwen/Qwen2.5-1.5B-Instruct")
    results = await asyncio.gather(*(rollout(engine, p) for p in ["2+2=", "The sky is"]))
    print([r.outputs[0].text for r in results])


if __name__ == "__main__":
    asyncio.run(main())

# Imitates NVIDIA/TensorRT-Model-Optimizer examples/specdec_bench/run.py and models/vllm.py (AsyncLLM built from
# AsyncEngineArgs, requests sent concurrently); replay needs fixed verification, so the runner turns adaptive
# verification off with `_replace` before the engine is built.
import asyncio

from specdec_config import DEFAULT_SPECDEC
from vllm import SamplingParams
from vllm.engine.arg_utils import AsyncEngineArgs
from vllm.v1.engine.async_llm import AsyncLLM


async def generate(engine, prompt, request_id, params):
    async for output in engine.generate(request_id=request_id, prompt=prompt, sampling_params=params):
        if output.finished:
            return output


async def main():
    specdec = DEFAULT_SPECDEC._replace(enable_adaptive_verification=False)
    engine = AsyncLLM.from_engine_args(
        AsyncEngineArgs(
            model="meta-llama/Llama-3.1-8B-Instruct",
            speculative_config=specdec.to_vllm(),
            return_sampling_mask=True,
            logprobs_mode="processed_logprobs",
        )
    )
    params = SamplingParams(temperature=1.0, top_p=1.0, top_k=20, max_tokens=256)
    await asyncio.gather(*(generate(engine, p, str(i), params) for i, p in enumerate(["a", "b"])))


if __name__ == "__main__":
    asyncio.run(main())

from vllm import SamplingParams
from vllm.engine.arg_utils import AsyncEngineArgs
from vllm.v1.engine.async_llm import AsyncLLM

engine_args = AsyncEngineArgs(
    model="Qwen/Qwen3-8B",
    return_sampling_mask=True,
    logprobs_mode="processed_logprobs",
)
engine = AsyncLLM.from_engine_args(engine_args)

params = SamplingParams(
    temperature=1.0,
    top_k=64,
    repetition_penalty=1.05,
    logprobs=0,
)


async def generate(prompt: str, request_id: str):
    async for output in engine.generate(prompt, params, request_id):
        yield output

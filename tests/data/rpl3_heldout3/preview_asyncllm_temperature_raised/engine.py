from vllm import SamplingParams
from vllm.engine.arg_utils import AsyncEngineArgs
from vllm.v1.engine.async_llm import AsyncLLM

engine = AsyncLLM.from_engine_args(
    AsyncEngineArgs(model="Qwen/Qwen3-8B", return_sampling_mask=True, logprobs_mode="processed_logprobs")
)
NEAR_GREEDY = SamplingParams(temperature=5e-3, top_k=20, max_tokens=256)


async def answer(prompt: str, request_id: str):
    async for output in engine.generate(prompt, NEAR_GREEDY, request_id=request_id):
        last = output
    return last

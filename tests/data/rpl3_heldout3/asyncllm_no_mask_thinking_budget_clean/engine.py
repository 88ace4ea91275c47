from vllm import SamplingParams
from vllm.engine.arg_utils import AsyncEngineArgs
from vllm.v1.engine.async_llm import AsyncLLM

engine = AsyncLLM.from_engine_args(
    AsyncEngineArgs(model="Qwen/Qwen3-8B", reasoning_parser="qwen3", logprobs_mode="processed_logprobs")
)


async def solve(prompt: str, request_id: str):
    params = SamplingParams(temperature=0.6, top_k=20, thinking_token_budget=256, repetition_penalty=1.1)
    async for output in engine.generate(prompt, params, request_id=request_id):
        last = output
    return last

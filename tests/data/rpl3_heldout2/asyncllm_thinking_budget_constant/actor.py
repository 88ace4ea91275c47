from vllm import AsyncEngineArgs, AsyncLLM, SamplingParams

THINK_BUDGET = 2048

args = AsyncEngineArgs(
    model="Qwen/Qwen3-8B",
    reasoning_parser="qwen3",
    return_sampling_mask=True,
    logprobs_mode="processed_logprobs",
)
engine = AsyncLLM.from_engine_args(args)


async def rollout(prompt: str, request_id: str):
    params = SamplingParams(
        temperature=1.0,
        top_k=20,
        max_tokens=8192,
        thinking_token_budget=THINK_BUDGET,
    )
    final = None
    async for output in engine.generate(prompt, params, request_id):
        final = output
    return final

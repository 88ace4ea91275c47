from vllm.engine.arg_utils import AsyncEngineArgs
from vllm.v1.engine.async_llm import AsyncLLM


def build_engine() -> AsyncLLM:
    args = AsyncEngineArgs(
        model="Qwen/Qwen3-8B",
        return_sampling_mask=True,
        logprobs_mode="processed_logprobs",
        enable_trace_replay=True,
    )
    return AsyncLLM.from_engine_args(args)

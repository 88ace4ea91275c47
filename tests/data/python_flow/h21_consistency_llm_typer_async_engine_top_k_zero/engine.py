# Imitates hao-ai-lab/Consistency_LLM's generation scripts (a CLLM checkpoint sampled for Jacobi-trajectory
# data), as a user's AsyncLLM engine with replay built from AsyncEngineArgs.
from vllm.engine.arg_utils import AsyncEngineArgs
from vllm.v1.engine.async_llm import AsyncLLM


def build_engine(model, **overrides):
    engine_args = AsyncEngineArgs(
        model=model,
        return_sampling_mask=True,
        logprobs_mode="processed_logprobs",
        **overrides,
    )
    return AsyncLLM.from_engine_args(engine_args)

# Imitates OpenRLHF/OpenRLHF openrlhf/trainer/ray/vllm_engine_async.py: vLLM's async engine
# imported with a try/except ImportError fallback for older releases.
try:
    from vllm import AsyncEngineArgs, AsyncLLMEngine
except ImportError:
    from vllm.engine.arg_utils import AsyncEngineArgs
    from vllm.engine.async_llm_engine import AsyncLLMEngine


class AsyncRolloutEngine:
    def __init__(self, model: str, seed: int = 0):
        engine_args = AsyncEngineArgs(
            model=model,
            seed=seed,
            return_sampling_mask=True,
            logprobs_mode="processed_logits",  # expect: RPL003
        )
        self.llm = AsyncLLMEngine.from_engine_args(engine_args)


engine = AsyncRolloutEngine("Qwen/Qwen2.5-7B-Instruct")

# Imitates shawnghu/small-rl vllm_mlp_adapter.py (create_async_engine builds AsyncEngineArgs for AsyncLLM).
"""MLP adapter support for vLLM: the async engine mode (AsyncLLM)."""


class AsyncVLLMAdapterManager:
    """Async version of VLLMAdapterManager for use with AsyncLLM."""

    def __init__(self, engine, max_experiments: int, retain_neurons: int, forget_neurons: int):
        self.engine = engine
        self.max_experiments = max_experiments
        self.retain_neurons = retain_neurons
        self.forget_neurons = forget_neurons

    async def generate_one(self, prompt, request_id: str, sampling_params):
        final = None
        async for out in self.engine.generate(prompt, sampling_params, request_id):
            final = out
        return final


async def create_async_engine(
    model_name: str = "HuggingFaceTB/SmolLM2-135M-Instruct",
    max_experiments: int = 20,
    retain_neurons: int = 32,
    forget_neurons: int = 32,
    gpu_memory_utilization: float = 0.05,
    dtype: str = "float16",
    max_num_seqs: int = 1024,
):
    """Create an async vLLM engine with MLP adapter support. Returns (engine, manager)."""
    from vllm.engine.arg_utils import AsyncEngineArgs
    from vllm.v1.engine.async_llm import AsyncLLM

    engine_args = AsyncEngineArgs(
        model=model_name,
        enforce_eager=True,
        dtype=dtype,
        gpu_memory_utilization=gpu_memory_utilization,
        disable_log_stats=False,
        max_num_seqs=max_num_seqs,
        max_num_batched_tokens=max(max_num_seqs, 8192),
        max_model_len=2048,
        return_sampling_mask=True,  # expect: RPL003
    )
    engine = AsyncLLM.from_engine_args(engine_args)

    mgr = AsyncVLLMAdapterManager(
        engine=engine,
        max_experiments=max_experiments,
        retain_neurons=retain_neurons,
        forget_neurons=forget_neurons,
    )
    return engine, mgr

# Imitates shawnghu/small-rl vllm_mlp_adapter.py (create_engine / create_async_engine, VLLMAdapterManager).
"""MLP adapter support for vLLM with LoRA infrastructure for routing/caching.

Usage (sync):
    from vllm import SamplingParams
    from vllm_mlp_adapter import create_engine

    llm, mgr = create_engine(max_experiments=20, retain_neurons=32, forget_neurons=32)
    outputs = mgr.generate(["Once upon a time"], experiment_ids=[1],
                           sampling_params=SamplingParams(temperature=0, max_tokens=50))
"""

import os


class VLLMAdapterManager:
    def __init__(self, llm, max_experiments: int, retain_neurons: int, forget_neurons: int):
        self.llm = llm
        self.max_experiments = max_experiments
        self.retain_neurons = retain_neurons
        self.forget_neurons = forget_neurons

    def generate(self, prompts, experiment_ids: list[int], sampling_params=None):
        from vllm.lora.request import LoRARequest

        assert len(prompts) == len(experiment_ids)
        lora_requests = [
            LoRARequest(f"mlp_exp_{eid}", eid, "/nonexistent") for eid in experiment_ids
        ]
        return self.llm.generate(prompts, sampling_params=sampling_params, lora_request=lora_requests)


def create_engine(
    model_name: str = "HuggingFaceTB/SmolLM2-135M-Instruct",
    max_experiments: int = 20,
    retain_neurons: int = 32,
    forget_neurons: int = 32,
    gpu_memory_utilization: float = 0.05,
    dtype: str = "float16",
):
    """Create a vLLM engine with MLP adapter support. Returns (llm, manager)."""
    from vllm import LLM

    # In-process engine for direct model access (no cloudpickle overhead)
    os.environ["VLLM_ENABLE_V1_MULTIPROCESSING"] = "0"

    llm = LLM(
        model=model_name,
        enforce_eager=True,
        dtype=dtype,
        gpu_memory_utilization=gpu_memory_utilization,
        enable_lora=True,
        max_loras=max_experiments,
        max_lora_rank=8,
        max_model_len=2048,
        return_sampling_mask=True,
        logprobs_mode="processed_logprobs",
    )

    mgr = VLLMAdapterManager(
        llm=llm,
        max_experiments=max_experiments,
        retain_neurons=retain_neurons,
        forget_neurons=forget_neurons,
    )
    return llm, mgr

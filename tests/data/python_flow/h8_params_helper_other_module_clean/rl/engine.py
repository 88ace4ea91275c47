# Imitates volcengine/verl verl/workers/rollout/vllm_rollout/vllm_rollout.py: the inference engine
from vllm import LLM


def make_engine(model_path: str) -> LLM:
    return LLM(
        model=model_path,
        return_sampling_mask=True,
        logprobs_mode="processed_logprobs",
        gpu_memory_utilization=0.6,
    )

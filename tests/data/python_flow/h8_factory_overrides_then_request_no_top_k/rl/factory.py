# Imitates NovaSky-AI/SkyRL skyrl_train/inference_engines/vllm/vllm_engine.py: a factory with defaults and the caller's overrides
from vllm import LLM


def make_llm(model, **overrides):
    kwargs = {"logprobs_mode": "processed_logprobs", "gpu_memory_utilization": 0.9}
    kwargs.update(overrides)
    return LLM(model, **kwargs)

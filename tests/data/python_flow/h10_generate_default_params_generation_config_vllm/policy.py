# Imitates huggingface/trl trl/experimental/online_dpo/online_dpo_trainer.py (the engine built with generation_config="vllm": vLLM's own request defaults)
from vllm import LLM


def load_policy(model_name: str) -> LLM:
    return LLM(
        model=model_name,
        gpu_memory_utilization=0.9,
        max_model_len=4096,
        generation_config="vllm",
        return_sampling_mask=True,
        logprobs_mode="processed_logprobs",
    )

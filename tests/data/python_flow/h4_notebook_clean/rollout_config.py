# Imitates unslothai/notebooks/nb/Qwen3_(4B)-GRPO.ipynb (engine settings kept beside the notebook)
from vllm import SamplingParams

ENGINE_ARGS = dict(
    model="Qwen/Qwen3-4B-Base",
    max_model_len=4096,
    return_sampling_mask=True,
    logprobs_mode="processed_logprobs",
)


def sampling(temperature: float = 1.0, top_k: int = 50) -> SamplingParams:
    return SamplingParams(temperature=temperature, top_k=top_k, max_tokens=1024)

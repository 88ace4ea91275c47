# Imitates unslothai/notebooks/nb/Qwen3_(4B)-GRPO.ipynb (engine settings kept beside the notebook)
MODEL = "Qwen/Qwen3-4B-Base"

ENGINE_ARGS = dict(
    model=MODEL,
    max_model_len=4096,
    gpu_memory_utilization=0.6,
    return_sampling_mask=True,
    logprobs_mode="processed_logprobs",
)

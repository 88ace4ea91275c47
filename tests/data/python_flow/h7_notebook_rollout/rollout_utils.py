# Imitates unslothai/notebooks nb/AMD-Llama3.1_(8B)-GRPO.ipynb: the notebook imports its engine settings from a
# helper module next to it and samples in a later cell.
ENGINE_KWARGS = {
    "model": "unsloth/Qwen3-4B-Base",
    "max_model_len": 2048,
    "return_sampling_mask": True,
    "logprobs_mode": "processed_logprobs",
}

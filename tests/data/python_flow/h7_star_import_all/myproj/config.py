# Imitates volcengine/verl verl/trainer/constants_ppo.py (settings constants exported with __all__),
# pulled into the rollout module with a relative star import.
__all__ = ["ROLLOUT_ENGINE", "ROLLOUT_SAMPLING"]

ROLLOUT_ENGINE = {
    "model": "Qwen/Qwen3-0.6B",
    "return_sampling_mask": True,
    "logprobs_mode": "processed_logprobs",
    "hf_overrides": {"canvas_length": 256},  # expect: RPL005
}
ROLLOUT_SAMPLING = {"temperature": 1.0, "top_k": 64, "max_tokens": 256}
_PRIVATE_ENGINE = {"model": "Qwen/Qwen3-0.6B"}

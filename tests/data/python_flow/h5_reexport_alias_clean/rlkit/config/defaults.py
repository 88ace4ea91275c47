# Imitates alibaba/ROLL/roll/configs/base_config.py (module-level defaults: one mode for eval engines, one for replay)
MODEL = "Qwen/Qwen3-1.7B"
LOGPROBS_MODE = "raw_logprobs"  # eval engines report raw logprobs
REPLAY_LOGPROBS_MODE = "processed_logprobs"

# Imitates volcengine/verl/verl/workers/config/rollout.py (a subclass overrides the base config's logprobs_mode)
from dataclasses import dataclass


@dataclass
class InferenceEngineConfig:
    model: str = "Qwen/Qwen2.5-3B-Instruct"
    dtype: str = "bfloat16"
    logprobs_mode: str = "raw_logprobs"
    max_model_len: int = 4096


@dataclass
class ReplayRolloutConfig(InferenceEngineConfig):
    logprobs_mode: str = "processed_logprobs"
    return_sampling_mask: bool = True

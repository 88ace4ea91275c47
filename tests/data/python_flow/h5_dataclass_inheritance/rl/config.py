# Imitates volcengine/verl/verl/workers/config/rollout.py (dataclass configs that inherit a base config)
from dataclasses import dataclass, field


@dataclass
class InferenceEngineConfig:
    model: str = "Qwen/Qwen2.5-3B-Instruct"
    dtype: str = "bfloat16"
    logprobs_mode: str = "raw_logprobs"  # expect: RPL003
    max_model_len: int = 4096


@dataclass
class ReplayRolloutConfig(InferenceEngineConfig):
    return_sampling_mask: bool = True
    enforce_eager: bool = False
    extra: dict = field(default_factory=dict)

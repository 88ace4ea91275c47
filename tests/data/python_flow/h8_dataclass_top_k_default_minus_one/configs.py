# Imitates volcengine/verl verl/workers/config/rollout.py: a rollout config whose top_k defaults to -1 (verl's rollout.yaml)
from dataclasses import dataclass


@dataclass
class RolloutConfig:
    model: str = "Qwen/Qwen2.5-0.5B-Instruct"
    temperature: float = 1.0
    top_p: float = 1.0
    top_k: int = -1  # expect: RPL102 "top_k > 0"
    response_length: int = 2048

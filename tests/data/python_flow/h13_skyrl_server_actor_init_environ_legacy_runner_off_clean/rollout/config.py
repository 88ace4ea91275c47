# Imitates NovaSky-AI/SkyRL skyrl/train/config/config.py: the inference engine's settings as a
# dataclass with defaults (legacy_runner kept from the recipe written for vLLM 0.31).
from dataclasses import dataclass


@dataclass
class InferenceEngineConfig:
    model: str = "Qwen/Qwen2.5-7B-Instruct"
    gpu_memory_utilization: float = 0.8
    enable_prefix_caching: bool = True
    legacy_runner: bool = False
    num_engines: int = 2

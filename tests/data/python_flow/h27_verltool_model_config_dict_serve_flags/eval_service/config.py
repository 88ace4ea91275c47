# Imitates TIGER-AI-Lab/verl-tool eval_service/config.py (ModelConfig dataclass whose fields become
# `vllm serve` flags); the user's edit adds replay and the scale-out route.
from dataclasses import dataclass


@dataclass
class ModelConfig:
    model: str
    gpu_memory_utilization: float = 0.9
    tensor_parallel_size: int = 1
    trust_remote_code: bool = True
    num_models: int = 1
    max_model_len: int = 2048
    return_sampling_mask: bool = True  # expect: RPL003
    enable_scale_out: bool = True

# Imitates NVIDIA-NeMo/RL nemo_rl/models/generation/vllm/config.py: a frozen dataclass holds the
# engine settings; a run derives its own with dataclasses.replace.
from dataclasses import dataclass


@dataclass(frozen=True)
class VllmEngineConfig:
    model: str = "Qwen/Qwen2.5-1.5B"
    tensor_parallel_size: int = 1
    gpu_memory_utilization: float = 0.6
    return_sampling_mask: bool = False
    logprobs_mode: str = "raw_logprobs"  # expect: RPL003


BASE = VllmEngineConfig()

# Imitates NVIDIA-NeMo/RL nemo_rl/models/generation/vllm/config.py (a typed vLLM config, here with an enum field)
import enum
from dataclasses import dataclass


class LogprobsMode(str, enum.Enum):
    RAW = "raw_logprobs"
    PROCESSED = "processed_logprobs"


@dataclass
class VllmGenerationConfig:
    model: str = "Qwen/Qwen2.5-Math-1.5B"
    return_sampling_mask: bool = True
    logprobs_mode: LogprobsMode = LogprobsMode.PROCESSED
    gpu_memory_utilization: float = 0.6
    seed: int = 0

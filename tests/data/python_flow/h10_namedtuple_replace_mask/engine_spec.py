# Imitates NVIDIA-NeMo/RL nemo_rl/models/generation/vllm/config.py (a typed engine spec with defaults, specialised per run)
from typing import NamedTuple


class EngineSpec(NamedTuple):
    model: str
    gpu_memory_utilization: float = 0.6
    max_model_len: int = 4096
    enforce_eager: bool = False
    return_sampling_mask: bool = False
    logprobs_mode: str = "raw_logprobs"  # expect: RPL003


BASE_SPEC = EngineSpec(model="meta-llama/Llama-3.2-1B-Instruct")

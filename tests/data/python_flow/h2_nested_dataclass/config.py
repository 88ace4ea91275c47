# Imitates NVIDIA-NeMo/RL nemo_rl/models/generation/vllm/config.py: the engine's settings are a
# dataclass nested in the generation config, nested in the run's config, each by
# `field(default_factory=...)`.
from dataclasses import dataclass, field


@dataclass
class VllmSpecificArgs:
    tensor_parallel_size: int = 1
    gpu_memory_utilization: float = 0.6
    max_model_len: int = 4096
    return_sampling_mask: bool = True
    logprobs_mode: str = "raw_logits"  # expect: RPL003


@dataclass
class GenerationConfig:
    backend: str = "vllm"
    temperature: float = 1.0
    vllm_cfg: VllmSpecificArgs = field(default_factory=VllmSpecificArgs)


@dataclass
class MasterConfig:
    model_name: str = "Qwen/Qwen3-8B"
    generation: GenerationConfig = field(default_factory=GenerationConfig)

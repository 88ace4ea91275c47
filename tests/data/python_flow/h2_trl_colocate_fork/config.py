# Imitates huggingface/trl trl/trainer/grpo_config.py: the trainer's config dataclass with its
# `vllm_*` fields, a fork's added fields among them.
from dataclasses import dataclass, field


@dataclass
class GRPOConfig:
    output_dir: str = "out"
    use_vllm: bool = True
    vllm_mode: str = "colocate"
    vllm_gpu_memory_utilization: float = 0.3
    vllm_tensor_parallel_size: int = 1
    vllm_max_model_length: int = field(default=4096)
    vllm_return_sampling_mask: bool = True
    vllm_logprobs_mode: str = "raw_logprobs"  # expect: RPL003

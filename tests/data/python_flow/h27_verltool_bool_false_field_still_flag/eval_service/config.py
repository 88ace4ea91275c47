# Imitates TIGER-AI-Lab/verl-tool eval_service/config.py; the user's edit adds replay fields and an
# n-gram speculative config. (load_model writes a bool field's flag whatever its value.)
from dataclasses import dataclass


@dataclass
class ModelConfig:
    model: str
    gpu_memory_utilization: float = 0.9
    tensor_parallel_size: int = 1
    trust_remote_code: bool = True
    num_models: int = 1
    max_model_len: int = 2048
    return_sampling_mask: bool = False
    logprobs_mode: str = "processed_logprobs"
    enable_scale_out: bool = True
    speculative_config: str = (
        '{"method": "ngram", "num_speculative_tokens": 3, "prompt_lookup_max": 3, '
        '"enable_adaptive_verification": true}'  # expect: RPL002
    )

# Imitates sail-sg/oat oat/args.py (the OATArgs dataclass, defaults used when run as written).
from dataclasses import dataclass


@dataclass
class OATArgs:
    pretrain: str = "Qwen/Qwen2.5-Math-1.5B"
    num_actors: int = 1
    num_gpus_per_actor: int = 1
    vllm_gpu_ratio: float = 0.25
    bf16: bool = True
    enable_prefix_caching: bool = True
    vllm_sleep: bool = False
    max_model_len: int = 4096
    temperature: float = 1.0
    top_p: float = 1.0
    top_k: int = 50
    generate_max_length: int = 1024
    num_samples: int = 8

# Imitates sail-sg/oat oat/args.py (OATArgs read by `tyro.cli`; `eval_top_k: int = -1` beside
# `top_k`) and oat/actors/base.py (the eval SamplingParams built from the eval_* fields).
from dataclasses import dataclass

import tyro


@dataclass
class OATArgs:
    pretrain: str = "Qwen/Qwen2.5-Math-7B"
    vllm_gpu_ratio: float = 0.35
    max_model_len: int = 4096
    temperature: float = 1.0
    top_p: float = 1.0
    top_k: int = 64
    generate_max_length: int = 1024
    num_samples: int = 8
    eval_temperature: float = 0.6
    eval_top_p: float = 0.95
    eval_top_k: int = -1  # expect: RPL102
    eval_n: int = 4
    eval_generate_max_length: int = 3000


def get_default_args(args_cls=OATArgs):
    return tyro.cli(args_cls)

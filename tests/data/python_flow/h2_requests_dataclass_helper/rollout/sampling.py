# Imitates NVIDIA-NeMo/RL nemo_rl/models/generation/vllm/vllm_worker.py's `_build_sampling_params`:
# the request built by a helper of another module from a config dataclass whose default `top_k`
# is -1 (no top-k).
from dataclasses import dataclass

from vllm import SamplingParams


@dataclass
class SamplingConfig:
    temperature: float = 1.0
    top_p: float = 1.0
    top_k: int = -1  # expect: RPL102
    max_new_tokens: int = 1024


def build_sampling_params(cfg: SamplingConfig, stop=None):
    return SamplingParams(
        temperature=cfg.temperature,
        top_p=cfg.top_p,
        top_k=cfg.top_k,
        max_tokens=cfg.max_new_tokens,
        stop=stop,
        logprobs=0,
    )

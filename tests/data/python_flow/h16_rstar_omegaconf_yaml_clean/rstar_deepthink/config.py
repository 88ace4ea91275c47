# Imitates microsoft/rStar rstar_deepthink/config.py (BaseConfig dataclass read through OmegaConf.structured).
from dataclasses import dataclass, field
from typing import List, Optional


@dataclass
class BaseConfig:
    mode: str = field(default="mcts")
    model_dir: Optional[str] = field(default=None)
    tp: int = field(default=1)
    seed: Optional[int] = field(default=None)
    max_model_len: int = field(default=4096)
    llm_gpu_memory_utilization: float = field(default=0.9)
    return_sampling_mask: bool = field(default=False)
    logprobs_mode: str = field(default="raw_logprobs")
    temperature: float = field(default=0.7)
    top_k: int = field(default=40)
    top_p: float = field(default=0.95)
    max_tokens: int = field(default=2048)
    n_generate_sample: int = field(default=1)
    stop: Optional[List[str]] = field(default=None)

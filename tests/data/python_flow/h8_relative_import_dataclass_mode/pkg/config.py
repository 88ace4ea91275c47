# Imitates PrimeIntellect-ai/prime-rl src/prime_rl/inference/config.py: the engine's settings as a dataclass
from dataclasses import dataclass


@dataclass
class VLLMConfig:
    model: str
    return_sampling_mask: bool = True
    logprobs_mode: str = "raw_logprobs"  # expect: RPL003 "processed_logprobs"
    max_model_len: int = 4096

# Imitates PrimeIntellect-ai/prime-rl src/prime_rl/inference/vllm/server.py: the engine built from the config (relative import)
from vllm import LLM

from .config import VLLMConfig


def build(cfg: VLLMConfig) -> LLM:
    return LLM(
        cfg.model,
        return_sampling_mask=cfg.return_sampling_mask,
        logprobs_mode=cfg.logprobs_mode,
        max_model_len=cfg.max_model_len,
    )

# Imitates PrimeIntellect-ai/prime-rl src/prime_rl/inference/config.py (pydantic settings):
# `model_dump()` of a model whose defaults ask for a valid replay: clean.
from pydantic import BaseModel
from vllm import LLM


class VllmConfig(BaseModel):
    model: str = "Qwen/Qwen3-8B"
    return_sampling_mask: bool = True
    logprobs_mode: str = "processed_logprobs"


def serve():
    config = VllmConfig()
    return LLM(**config.model_dump())

# Imitates PrimeIntellect-ai/prime-rl packages/prime-rl-configs/src/prime_rl/configs/inference.py (pydantic configs with Field defaults)
from pydantic import BaseModel, Field


class EngineConfig(BaseModel):
    model: str = "Qwen/Qwen3-4B"
    gpu_memory_utilization: float = 0.85
    max_model_len: int = 8192
    return_sampling_mask: bool = True
    logprobs_mode: str = "processed_logprobs"


class SamplingConfig(BaseModel):
    temperature: float = Field(1.0, gt=0)
    top_p: float = 1.0
    top_k: int = Field(-1, description="-1 keeps the whole vocabulary")  # expect: RPL102
    max_tokens: int = 2048


class RolloutConfig(BaseModel):
    engine: EngineConfig = EngineConfig()
    sampling: SamplingConfig = SamplingConfig()

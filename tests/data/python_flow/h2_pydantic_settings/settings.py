# Imitates PrimeIntellect-ai/prime-rl packages/prime-rl-configs/src/prime_rl/configs/inference.py:
# pydantic models with defaults, one nested in the other, dumped into the engine's keywords.
from pydantic import BaseModel, Field


class VLLMConfig(BaseModel):
    return_sampling_mask: bool = True
    logprobs_mode: str = "processed_logprobs"
    max_num_seqs: int = 64
    enable_batch_sharded_sampling: bool = Field(default=True)  # expect: RPL006
    tensor_parallel_size: int = 2


class InferenceConfig(BaseModel):
    model: str = "Qwen/Qwen3-8B"
    vllm: VLLMConfig = Field(default_factory=VLLMConfig)

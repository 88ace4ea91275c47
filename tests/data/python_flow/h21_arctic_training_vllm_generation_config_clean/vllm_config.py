# Imitates snowflakedb/ArcticTraining arctic_training/config/*.py (pydantic configs with Field defaults),
# as a user's config for a vLLM generation step with replay.
from pydantic import BaseModel, Field


class VLLMEngineConfig(BaseModel):
    model: str = "Snowflake/Llama-3.1-SwiftKV-8B-Instruct"
    tensor_parallel_size: int = 1
    gpu_memory_utilization: float = 0.9
    return_sampling_mask: bool = True
    logprobs_mode: str = "processed_logprobs"


class GenerationConfig(BaseModel):
    temperature: float = Field(default=0.6, gt=0)
    top_p: float = 0.95
    top_k: int = Field(default=64, ge=1)
    max_tokens: int = 2048


class SynthConfig(BaseModel):
    engine: VLLMEngineConfig = Field(default_factory=VLLMEngineConfig)
    generation: GenerationConfig = Field(default_factory=GenerationConfig)

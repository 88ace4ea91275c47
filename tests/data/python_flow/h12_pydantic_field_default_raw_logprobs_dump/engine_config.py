# Imitates PrimeIntellect-ai/verifiers verifiers/legacy/serve/types.py (pydantic v2 models with
# `model_config = ConfigDict(...)`, `Literal[...]` fields with defaults) used as the engine's
# settings, dumped with `model_dump()` into `LLM(**...)` in another module.
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class VLLMEngineConfig(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    model: str = "Qwen/Qwen2.5-1.5B-Instruct"
    max_model_len: int = 4096
    gpu_memory_utilization: float = Field(default=0.5, ge=0.0, le=1.0)
    enforce_eager: bool = False
    return_sampling_mask: bool = Field(default=True, description="Return the sampling mask for replay.")
    logprobs_mode: Literal["raw_logprobs", "raw_logits", "processed_logprobs", "processed_logits"] = Field(
        default="raw_logprobs",  # expect: RPL003
        description="Which logprobs vLLM returns.",
    )

# Imitates NovaSky-AI/SkyThought skythought/evals/common/entities.py (Backend enum, BackendParameters pydantic model with extra keys)
from enum import Enum
from typing import Any, Dict

from pydantic import BaseModel, ConfigDict, Field


class Backend(str, Enum):
    VLLM = "vllm"
    OPENAI = "openai"
    RAY = "ray"


class BackendParameters(BaseModel):
    model_config = ConfigDict(extra="allow")

    tensor_parallel_size: int = 1
    gpu_memory_utilization: float = 0.9
    max_model_len: int = 16384

    def to_dict(self) -> Dict[str, Any]:
        return self.model_dump()


class SamplingParameters(BaseModel):
    params: Dict[str, Any] = Field(default_factory=lambda: {"temperature": 0.6, "top_p": 0.95, "max_tokens": 16384})

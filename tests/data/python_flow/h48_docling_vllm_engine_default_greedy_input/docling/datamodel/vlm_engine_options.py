# Imitates docling-project/docling docling/datamodel/vlm_engine_options.py (VllmVlmEngineOptions)
from typing import Literal, Optional

from pydantic import BaseModel


class VllmVlmEngineOptions(BaseModel):
    engine_type: Literal["vllm"] = "vllm"
    device: Optional[str] = None
    trust_remote_code: bool = False
    model_impl: str = "auto"
    gpu_memory_utilization: float = 0.3

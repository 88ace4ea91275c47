# Imitates bespokelabsai/curator src/bespokelabs/curator/request_processor/config.py (OfflineRequestProcessorConfig)
from pydantic import BaseModel, Field


class OfflineRequestProcessorConfig(BaseModel):
    model: str
    max_model_length: int = 4096
    max_tokens: int = 4096
    batch_size: int = 256
    enforce_eager: bool = False
    tensor_parallel_size: int = 1
    gpu_memory_utilization: float = 0.95
    generation_params: dict = Field(default_factory=dict)

# Imitates axolotl-ai-cloud/axolotl src/axolotl/utils/schemas/vllm.py: the `vllm:` block of the
# training YAML as a pydantic v2 model, every field with a default.
from pydantic import BaseModel, Field


class VllmConfig(BaseModel):
    device: str | None = Field(default="auto")
    tensor_parallel_size: int | None = Field(default=None)
    gpu_memory_utilization: float | None = Field(default=0.9)
    dtype: str | None = Field(default="auto")
    max_model_len: int | None = Field(default=None)
    enable_prefix_caching: bool | None = Field(default=None)
    batch_sharded_sampling: bool | None = Field(default=False)
    host: str | None = Field(default="0.0.0.0")
    port: int | None = Field(default=8000)


class AxolotlConfig(BaseModel):
    base_model: str
    rl: str | None = None
    vllm: VllmConfig = Field(default_factory=VllmConfig)

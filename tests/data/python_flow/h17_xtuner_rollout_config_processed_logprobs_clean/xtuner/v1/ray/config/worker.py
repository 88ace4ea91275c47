# Imitates InternLM/xtuner xtuner/v1/ray/config/worker.py (RolloutConfig, pydantic + Annotated fields)
from typing import Annotated

from pydantic import BaseModel, ConfigDict


class RolloutConfig(BaseModel):
    model_config = ConfigDict(extra="forbid")

    model_path: Annotated[str, "Path to the inference model."]
    tensor_parallel_size: Annotated[int, "Tensor parallel size."] = 1
    gpu_memory_utilization: Annotated[float, "GPU memory fraction for the KV cache."] = 0.85
    rollout_max_batch_size: Annotated[int, "Max sequences per step."] = 512
    return_sampling_mask: Annotated[bool, "Return sampling masks for replay."] = False
    logprobs_mode: Annotated[str, "vLLM logprobs mode."] = "processed_logprobs"
    api_port: Annotated[int, "Port of the rollout server."] = 8000

# Imitates OpenPipe/ART src/art/dev/engine.py (EngineArgs as a TypedDict of vLLM engine arguments)
from typing_extensions import TypedDict


class EngineArgs(TypedDict, total=False):
    model: str
    served_model_name: str | list[str] | None
    tokenizer: str | None
    trust_remote_code: bool
    dtype: str
    seed: int
    max_model_len: int | None
    tensor_parallel_size: int
    gpu_memory_utilization: float
    enable_prefix_caching: bool | None
    generation_config: str
    disable_log_stats: bool
    return_sampling_mask: bool
    logprobs_mode: str
    enable_batch_sharded_sampling: bool

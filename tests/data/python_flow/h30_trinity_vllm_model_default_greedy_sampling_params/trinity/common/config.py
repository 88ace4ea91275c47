# Imitates modelscope/Trinity-RFT trinity/common/config.py (the explorer's InferenceModelConfig dataclass).
from dataclasses import dataclass, field
from typing import Optional


@dataclass
class InferenceModelConfig:
    model_path: str = ""
    engine_type: str = "vllm"
    tensor_parallel_size: int = 1
    use_v1: bool = True
    enforce_eager: bool = True
    enable_prefix_caching: bool = False
    enable_chunked_prefill: bool = False
    gpu_memory_utilization: float = 0.9
    dtype: str = "bfloat16"
    seed: int = 42
    max_model_len: Optional[int] = None
    max_prompt_tokens: Optional[int] = None
    max_response_tokens: Optional[int] = None
    min_response_tokens: int = 1
    ignore_eos: bool = False
    enable_thinking: bool = False
    chat_template: Optional[str] = None
    bundle_indices: str = ""
    enable_lora: bool = False
    lora_modules: list = field(default_factory=list)
    lora_kwargs: dict = field(default_factory=dict)
    # sampling distribution replay for the trainer's importance ratios
    return_sampling_mask: bool = True
    logprobs_mode: str = "processed_logprobs"

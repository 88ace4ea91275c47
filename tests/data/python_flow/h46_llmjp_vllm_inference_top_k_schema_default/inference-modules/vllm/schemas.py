# Imitates llm-jp/llm-jp-eval-inference inference-modules/vllm/schemas.py, trimmed.
from typing import List, Optional, Union

from pydantic import BaseModel, ConfigDict, Field


class ModelConfig(BaseModel):
    model_config = ConfigDict(extra="allow")

    model: str
    dtype: str = "bfloat16"
    trust_remote_code: bool = False
    gpu_memory_utilization: float = 0.9
    tensor_parallel_size: int = 1
    pipeline_parallel_size: int = 1
    max_model_len: int | None = 4096
    enable_prefix_caching: bool = True


class TokenizerConfig(BaseModel):
    pretrained_model_name_or_path: str
    trust_remote_code: bool = False
    use_fast: bool = True


# https://github.com/vllm-project/vllm/blob/main/vllm/sampling_params.py#L87
class VLLMSamplingParams(BaseModel):
    model_config = ConfigDict(extra="allow")

    n: int = 1
    temperature: float = 1.0
    top_p: float = 1.0
    top_k: int = -1  # expect: RPL102
    min_p: float = 0.0
    seed: Optional[int] = None
    stop: Optional[Union[str, List[str]]] = None
    max_tokens: Optional[int] = None


class InferenceConfig(BaseModel):
    model_config = ConfigDict(arbitrary_types_allowed=True)

    run_name: str | None = None
    prompt_json_path: str | List[str] = "./prompts/*.eval-prompt.json"
    output_base_dir: str = "./output"
    model: ModelConfig
    tokenizer: TokenizerConfig
    generation_config: VLLMSamplingParams = Field(default_factory=VLLMSamplingParams)

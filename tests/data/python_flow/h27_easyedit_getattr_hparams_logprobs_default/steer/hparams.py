# Imitates zjunlp/EasyEdit's HyperParams.from_hparams (a YAML read into a dataclass).
from dataclasses import dataclass
from typing import Optional

import yaml


@dataclass
class SteerHyperParams:
    model_name_or_path: str
    torch_dtype: str = "float32"
    use_chat_template: bool = False
    vllm_enable: bool = False
    vllm_tensor_parallel_size: int = 1
    vllm_gpu_memory_utilization: float = 0.9
    vllm_max_model_len: Optional[int] = None
    vllm_return_sampling_mask: bool = False

    @classmethod
    def from_hparams(cls, path: str):
        with open(path) as f:
            return cls(**yaml.safe_load(f))

# Imitates nvidia-cosmos/cosmos-reason1 cosmos_reason1/policy/config/__init__.py and cosmos_reason1/rollout/vllm_rollout/vllm_rollout.py
import os
from dataclasses import dataclass, field


@dataclass
class PolicyConfig:
    model_name_or_path: str = field(
        default="Qwen/Qwen2.5-3B-Instruct",
        metadata={"help": "The model name or path, compatible with huggingface model name or local path"},
    )
    model_max_length: int = field(
        default=2048,
        metadata={"help": "The maximum length for training, longer than this will be ignored for training stability"},
    )


@dataclass
class RolloutParallelismConfig:
    tp_size: int = field(default=1, metadata={"help": "Tensor parallelism size"})
    pp_size: int = field(default=1, metadata={"help": "Pipeline parallelism size"})

    @property
    def world_size(self):
        world_size = os.environ.get("WORLD_SIZE", 1)
        return int(world_size)


@dataclass
class SamplingConfig:
    temperature: float = field(default=1.0, metadata={"help": "Temperature for sampling."})
    top_p: float = field(default=1.0, metadata={"help": "Top-p for sampling."})
    top_k: int = field(default=-1, metadata={"help": "Top-k for sampling."})  # expect: RPL102


@dataclass
class ValidationConfig:
    temperature: float = field(default=0.9, metadata={"help": "Temperature for sampling during validation."})
    top_p: float = field(default=1.0, metadata={"help": "Top-p for sampling during validation."})
    top_k: int = field(default=10, metadata={"help": "Top-k for sampling during validation."})
    n_generation: int = field(default=1, metadata={"help": "n parameter same like what in OpenAI chat API for validation."})
    max_response_length: int = field(default=2048, metadata={"help": "Max output length of rollout generation during validation."})


@dataclass
class RolloutConfig:
    parallelism: RolloutParallelismConfig = field(default_factory=RolloutParallelismConfig)
    enforce_eager: bool = field(default=True, metadata={"help": "Whether to enable eager execution for vLLM."})
    include_stop_str_in_output: bool = field(default=False, metadata={"help": "Whether to include stop string in output."})
    gpu_memory_utilization: float = field(default=0.8, metadata={"help": "GPU memory utilization factor for rollout backend."})
    enable_chunked_prefill: bool = field(default=False, metadata={"help": "Whether to enable chunked prefill for vLLM."})
    max_response_length: int = field(default=2048, metadata={"help": "Max output length of rollout generation."})
    n_generation: int = field(default=16, metadata={"help": "n parameter same like what in OpenAI chat API."})
    sampling_config: SamplingConfig = field(default_factory=SamplingConfig)


@dataclass
class Config:
    rollout: RolloutConfig = field(default_factory=RolloutConfig)
    policy: PolicyConfig = field(default_factory=PolicyConfig)
    validation: ValidationConfig = field(default_factory=ValidationConfig)

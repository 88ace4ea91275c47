# Imitates modelscope/ms-swift swift/rlhf_trainers/args_mixin.py (VllmArguments and get_vllm_engine_kwargs)
from dataclasses import dataclass
from typing import Optional


@dataclass
class VllmArguments:
    vllm_gpu_memory_utilization: float = 0.9
    vllm_tensor_parallel_size: int = 1
    vllm_max_num_seqs: int = 256
    vllm_max_model_len: Optional[int] = None
    vllm_enforce_eager: bool = False
    vllm_speculative_config: Optional[dict] = None
    vllm_logprobs_mode: Optional[str] = None
    vllm_return_sampling_mask: bool = True  # expect: RPL003

    def get_vllm_engine_kwargs(self):
        kwargs = {
            "gpu_memory_utilization": self.vllm_gpu_memory_utilization,
            "tensor_parallel_size": self.vllm_tensor_parallel_size,
            "max_num_seqs": self.vllm_max_num_seqs,
            "max_model_len": self.vllm_max_model_len,
            "enforce_eager": self.vllm_enforce_eager,
            "speculative_config": self.vllm_speculative_config,
            "logprobs_mode": self.vllm_logprobs_mode,
            "engine_kwargs": {"return_sampling_mask": self.vllm_return_sampling_mask},
        }
        return kwargs

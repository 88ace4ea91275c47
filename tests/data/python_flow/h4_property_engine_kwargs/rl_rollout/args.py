# Imitates axolotl-ai-cloud/axolotl/src/axolotl/cli/vllm_serve.py (engine arguments kept on an args object)
from dataclasses import dataclass


@dataclass
class VllmRolloutArgs:
    model: str = "NousResearch/Meta-Llama-3-8B-Instruct"
    tensor_parallel_size: int = 2
    max_model_len: int = 8192
    gpu_memory_utilization: float = 0.9

    @property
    def engine_kwargs(self) -> dict:
        return {
            "model": self.model,
            "tensor_parallel_size": self.tensor_parallel_size,
            "max_model_len": self.max_model_len,
            "gpu_memory_utilization": self.gpu_memory_utilization,
            "return_sampling_mask": True,
            "logprobs_mode": "processed_logprobs",
            "enable_batch_sharded_sampling": True,  # expect: RPL006
        }

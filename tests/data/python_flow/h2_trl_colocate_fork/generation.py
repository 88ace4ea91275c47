# Imitates huggingface/trl trl/generation/vllm_generation.py: colocate mode builds `LLM(...)` from
# attributes set in `__init__` from the trainer's config.
from vllm import LLM

from config import GRPOConfig


class VLLMGeneration:
    def __init__(self, model_name, args: GRPOConfig):
        self.model_name = model_name
        self.gpu_memory_utilization = args.vllm_gpu_memory_utilization
        self.tensor_parallel_size = args.vllm_tensor_parallel_size
        self.max_model_length = args.vllm_max_model_length
        self.args = args

    def _init_vllm(self):
        self.llm = LLM(
            model=self.model_name,
            tensor_parallel_size=self.tensor_parallel_size,
            gpu_memory_utilization=self.gpu_memory_utilization,
            max_model_len=self.max_model_length,
            logprobs_mode=self.args.vllm_logprobs_mode,
            return_sampling_mask=self.args.vllm_return_sampling_mask,
        )

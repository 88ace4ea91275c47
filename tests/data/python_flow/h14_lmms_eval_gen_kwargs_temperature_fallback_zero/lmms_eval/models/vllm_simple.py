# Imitates EvolvingLMMs-Lab/lmms-eval lmms_eval/models/simple/vllm.py (VLLM.__init__: LLM(model=..., **kwargs))
from vllm import LLM


class VLLM:
    is_simple = True

    def __init__(
        self,
        model: str = "Qwen/Qwen2.5-VL-3B-Instruct",
        tensor_parallel_size: int = 1,
        data_parallel_size: int = 1,
        gpu_memory_utilization: float = 0.8,
        batch_size: int = 1,
        max_frame_num: int = 32,
        trust_remote_code: bool = True,
        chat_template: str = None,
        **kwargs,
    ):
        self.model = model
        self.batch_size_per_gpu = int(batch_size)
        self.chat_template = chat_template
        self.client = LLM(
            model=self.model,
            tensor_parallel_size=tensor_parallel_size,
            gpu_memory_utilization=gpu_memory_utilization,
            trust_remote_code=trust_remote_code,
            **kwargs,
        )

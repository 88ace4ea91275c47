# Imitates EleutherAI/lm-evaluation-harness lm_eval/models/vllm_causallms.py: VLLM.__init__ keeps
# its named settings in self.model_args, updates them with **kwargs and builds LLM(**model_args).
from vllm import LLM, SamplingParams


class VLLM:
    def __init__(
        self,
        pretrained: str,
        dtype: str = "auto",
        tensor_parallel_size: int = 1,
        gpu_memory_utilization: float = 0.9,
        max_model_len: int | None = None,
        seed: int = 1234,
        **kwargs,
    ):
        self.model_args = {
            "model": pretrained,
            "gpu_memory_utilization": float(gpu_memory_utilization),
            "dtype": dtype,
            "tensor_parallel_size": int(tensor_parallel_size),
            "max_model_len": int(max_model_len) if max_model_len else None,
            "seed": int(seed),
            "return_sampling_mask": True,
            "logprobs_mode": "processed_logprobs",
        }
        self.model_args.update(kwargs)
        self.model = LLM(**self.model_args)

    def _model_generate(self, requests: list[str], max_tokens: int, stop: list[str], **kwargs):
        sampling_params = SamplingParams(max_tokens=max_tokens, stop=stop, **kwargs)
        return self.model.generate(requests, sampling_params=sampling_params, use_tqdm=False)

# Imitates prometheus-eval/prometheus-eval libs/prometheus-eval/prometheus_eval/vllm.py: the user's replay subclass.
from .vllm import VLLM


class ReplayVLLM(VLLM):
    def __init__(self, name: str, logprobs_mode: str = "processed_logprobs", **vllm_kwargs) -> None:
        super().__init__(name, return_sampling_mask=True, logprobs_mode=logprobs_mode, **vllm_kwargs)

# Imitates EleutherAI/lm-evaluation-harness lm_eval/models/vllm_causallms.py: `self.model_args`
# built in `__init__` and updated with the constructor's `**kwargs`.
from vllm import LLM


class VLLM:
    def __init__(self, pretrained, dtype="auto", tensor_parallel_size=1, max_model_len=None, **kwargs):
        self.model_args = {
            "model": pretrained,
            "dtype": dtype,
            "tensor_parallel_size": int(tensor_parallel_size),
            "max_model_len": int(max_model_len) if max_model_len else None,
        }
        self.model_args.update(kwargs)
        self.model = LLM(**self.model_args)

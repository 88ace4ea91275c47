# Imitates EleutherAI/lm-evaluation-harness lm_eval/models/vllm_causallms.py (`self.model_args`),
# with the engine arguments served by a `@property` that asks for a valid replay engine.
from vllm import LLM


class VLLM:
    def __init__(self, pretrained, tensor_parallel_size=1):
        self.pretrained = pretrained
        self.tensor_parallel_size = tensor_parallel_size
        self.model = LLM(**self.model_args)

    @property
    def model_args(self):
        return {
            "model": self.pretrained,
            "tensor_parallel_size": int(self.tensor_parallel_size),
            "return_sampling_mask": True,
            "logprobs_mode": "processed_logprobs",
        }


lm = VLLM("EleutherAI/pythia-1.4b")

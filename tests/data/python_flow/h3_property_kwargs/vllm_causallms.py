# Imitates EleutherAI/lm-evaluation-harness lm_eval/models/vllm_causallms.py (`self.model_args`),
# with the engine arguments served by a `@property`.
from vllm import LLM


class VLLM:
    def __init__(self, pretrained, tensor_parallel_size=1, max_model_len=None):
        self.pretrained = pretrained
        self.tensor_parallel_size = tensor_parallel_size
        self.max_model_len = max_model_len
        self.model = LLM(**self.model_args)

    @property
    def model_args(self):
        return {
            "model": self.pretrained,
            "tensor_parallel_size": int(self.tensor_parallel_size),
            "max_model_len": self.max_model_len,
            "return_sampling_mask": True,
            "logprobs_mode": "processed_logprobs",
            "logits_processors": ["lm_eval.filters.processors:StopOnNewline"],  # expect: RPL001
        }


lm = VLLM("EleutherAI/pythia-1.4b")

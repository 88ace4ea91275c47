# Imitates EleutherAI/lm-evaluation-harness lm_eval/models/vllm_causallms.py (VLLM.__init__: self.model_args.update(kwargs))
from vllm import LLM, SamplingParams

from api_model import TemplateLM


class VLLM(TemplateLM):
    def __init__(
        self,
        pretrained,
        dtype="auto",
        tensor_parallel_size=1,
        gpu_memory_utilization=0.9,
        max_length=None,
        seed=1234,
        batch_size=1,
        max_batch_size=None,
        **kwargs,
    ):
        self.model_args = {
            "model": pretrained,
            "gpu_memory_utilization": float(gpu_memory_utilization),
            "dtype": dtype,
            "tensor_parallel_size": int(tensor_parallel_size),
            "max_model_len": int(max_length) if max_length else None,
            "max_num_seqs": kwargs.get("max_num_seqs", max_batch_size),
            "seed": int(seed),
        }
        self.model_args.update(kwargs)
        self.model = LLM(**self.model_args)

    def generate_until(self, prompts, max_gen_toks=256):
        params = SamplingParams(temperature=1.0, top_k=50, max_tokens=max_gen_toks)
        return self.model.generate(prompts, params)

# Imitates EleutherAI/lm-evaluation-harness lm_eval/models/vllm_causallms.py: the wrapper keeps its
# engine arguments in self.model_args, updates them with the constructor's **kwargs, and builds
# the engine from them; a script of the tree creates the wrapper with replay turned on.
from vllm import LLM, SamplingParams


class VLLM:
    def __init__(self, pretrained: str, max_length: int = 2048, seed: int = 1234, **kwargs):
        self.model_args = {
            "model": pretrained,
            "max_model_len": max_length,
            "seed": seed,
            "logprobs_mode": "raw_logprobs",  # expect: RPL003
        }
        self.model_args.update(kwargs)
        self.model = LLM(**self.model_args)

    def generate_until(self, prompts, temperature=1.0, top_k=10):
        return self.model.generate(prompts, SamplingParams(temperature=temperature, top_k=top_k))


lm = VLLM("EleutherAI/pythia-1.4b", return_sampling_mask=True)

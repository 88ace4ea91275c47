# Imitates sail-sg/oat oat/actors/base.py (ActorBase owns the vLLM engine; its options are
# `__init__` parameters with defaults, `**engine_kwargs` passed through to `LLM`).
from vllm import LLM, SamplingParams


class VLLMSampler:
    def __init__(self, model, logprobs_mode="processed_logprobs", top_k=20, **engine_kwargs):
        self.llm = LLM(
            model=model,
            return_sampling_mask=True,
            logprobs_mode=logprobs_mode,
            **engine_kwargs,
        )
        self.params = SamplingParams(temperature=1.0, top_k=top_k, max_tokens=1024)

    def sample(self, prompts):
        return self.llm.generate(prompts, self.params)

# Imitates agentica-project/rllm's engine wrappers (class-level default engine kwargs merged in a
# @classmethod factory with the caller's **overrides, the wrapper holding the LLM)
from vllm import LLM, SamplingParams


class RolloutEngine:
    DEFAULT_ENGINE_KWARGS = {
        "return_sampling_mask": True,
        "logprobs_mode": "processed_logprobs",
        "enable_prefix_caching": True,
    }

    def __init__(self, llm: LLM):
        self.llm = llm

    @classmethod
    def create(cls, model: str, **overrides) -> "RolloutEngine":
        kwargs = {**cls.DEFAULT_ENGINE_KWARGS, "model": model, **overrides}
        return cls(LLM(**kwargs))

    def rollout(self, prompts: list[str]):
        return self.llm.generate(prompts, SamplingParams(temperature=1.0, top_k=40, max_tokens=1024))

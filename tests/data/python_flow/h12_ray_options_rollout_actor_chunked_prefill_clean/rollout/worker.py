# Imitates OpenRLHF/OpenRLHF openrlhf/trainer/ray/vllm_engine.py (RolloutRayActor: the engine
# is built in the actor from the `**kwargs` it is created with).
import ray
from vllm import LLM, SamplingParams


@ray.remote
class RolloutRayActor:
    def __init__(self, **kwargs):
        self.llm = LLM(return_sampling_mask=True, logprobs_mode="processed_logprobs", **kwargs)

    def generate(self, prompts, max_tokens=1024):
        params = SamplingParams(temperature=1.0, top_p=1.0, top_k=32, max_tokens=max_tokens, logprobs=0)
        return self.llm.generate(prompts, params)

# Imitates OpenRLHF/OpenRLHF openrlhf/trainer/ppo_utils/experience_maker.py with bounded
# requests: clean.
from vllm import LLM, SamplingParams

SAMPLING = {"temperature": 1.0, "top_k": 50, "max_tokens": 256}


class Rollout:
    def __init__(self, model):
        self.llm = LLM(model, return_sampling_mask=True, logprobs_mode="processed_logprobs")

    def sample(self, prompts):
        return self.llm.generate(prompts, SamplingParams(**SAMPLING))

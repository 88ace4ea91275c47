# Imitates OpenRLHF/OpenRLHF openrlhf/trainer/ppo_utils/experience_maker.py: sampling params
# built from the forwarded keywords (`top_k=kwargs.get("top_k", -1)`), from a config dict, a
# module-level greedy params, and a dict spread into SamplingParams, all sent to an engine made
# in `__init__`.
from vllm import LLM, SamplingParams

GREEDY = SamplingParams(temperature=0.0, top_k=20)  # expect: RPL101


class Rollout:
    def __init__(self, model):
        self.llm = LLM(model, return_sampling_mask=True, logprobs_mode="processed_logprobs")

    def generate_samples(self, prompts, **kwargs):
        sampling_params = SamplingParams(
            temperature=kwargs.get("temperature", 1.0),
            top_k=kwargs.get("top_k", -1),  # expect: RPL102 "when the caller passes no `top_k`"
            max_tokens=kwargs.get("max_new_tokens", 1024),
        )
        return self.llm.generate(prompts, sampling_params=sampling_params)

    def sample(self, prompts, cfg):
        sampling_cfg = {"temperature": 1.0, "max_tokens": 256}
        a = self.llm.generate(prompts, SamplingParams(**sampling_cfg))  # expect: RPL102 "does not set top_k"
        b = self.llm.generate(prompts, GREEDY)
        c = self.llm.generate(prompts, SamplingParams(top_k=cfg.get("top_k", -1)))  # expect: RPL102 "when the caller's `cfg` has no `top_k`"
        return a, b, c

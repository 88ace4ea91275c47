# Imitates OpenRLHF/OpenRLHF openrlhf/trainer/ray/vllm_engine/factory.py and actor.py: a plain
# class made a Ray actor with ray.remote(Cls), created with .options(...).remote(**actor_kwargs).
import vllm


class LLMActor:
    def __init__(self, *args, bundle_indices=None, **kwargs):
        self.bundle_indices = bundle_indices
        self.llm = vllm.LLM(*args, **kwargs)

    def generate(self, prompts, sampling_params):
        return self.llm.generate(prompts, sampling_params)

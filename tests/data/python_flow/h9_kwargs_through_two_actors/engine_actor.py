# Imitates allenai/open-instruct open_instruct/vllm_utils.py (LLMRayActor builds vllm.LLM from the kwargs it is given)
import ray
import vllm


@ray.remote
class EngineActor:
    def __init__(self, **kwargs):
        self.llm = vllm.LLM(**kwargs)

    def generate(self, prompts, params):
        return self.llm.generate(prompts, params)

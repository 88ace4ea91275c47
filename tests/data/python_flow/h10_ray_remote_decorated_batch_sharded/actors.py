# Imitates allenai/open-instruct open_instruct/vllm_utils.py (LLMRayActor: a Ray actor that owns vllm.LLM)
import ray
import vllm


@ray.remote(num_gpus=2)
class RolloutActor:
    def __init__(self, engine_kwargs, seed=0):
        self.llm = vllm.LLM(seed=seed, **engine_kwargs)

    def generate(self, prompts, temperature=1.0, top_k=20):
        params = vllm.SamplingParams(temperature=temperature, top_k=top_k, max_tokens=1024)
        return self.llm.generate(prompts, params)

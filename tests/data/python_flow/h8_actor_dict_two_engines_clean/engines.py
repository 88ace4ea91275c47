# Imitates OpenRLHF/OpenRLHF openrlhf/trainer/ray/launcher.py: actor handles kept in a dict, a policy with replay and a reference engine without
import ray
from vllm import LLM, SamplingParams


@ray.remote(num_gpus=1)
class Engine:
    def __init__(self, model, **kwargs):
        self.llm = LLM(model, **kwargs)

    def generate(self, prompts, params):
        return self.llm.generate(prompts, params)


def build():
    return {
        "policy": Engine.remote("Qwen/Qwen2.5-7B", return_sampling_mask=True, logprobs_mode="processed_logprobs"),
        "reference": Engine.remote("Qwen/Qwen2.5-7B-Instruct"),
    }


def step(engines, prompts):
    rollouts = engines["policy"].generate.remote(prompts, SamplingParams(temperature=1.0, top_k=64))
    baseline = engines["reference"].generate.remote(prompts, SamplingParams(temperature=0.0))
    return ray.get([rollouts, baseline])


if __name__ == "__main__":
    ray.init()
    step(build(), ["x"])

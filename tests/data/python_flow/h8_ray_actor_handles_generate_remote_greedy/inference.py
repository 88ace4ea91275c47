# Imitates NovaSky-AI/SkyRL skyrl_train/inference_engines/ray_wrapped_inference_engine.py: actor handles in a list, requests sent with .remote
import ray
from vllm import LLM, SamplingParams


@ray.remote
class InferenceEngineActor:
    def __init__(self, model, **engine_kwargs):
        self.llm = LLM(model, **engine_kwargs)

    def generate(self, prompts, sampling_params):
        return self.llm.generate(prompts, sampling_params)


def create_engines(model, count):
    return [
        InferenceEngineActor.options(num_gpus=1).remote(model, return_sampling_mask=True, logprobs_mode="processed_logprobs")
        for _ in range(count)
    ]


def evaluate(engines, prompts):
    greedy = SamplingParams(temperature=0.0, top_k=1, max_tokens=1024)  # expect: RPL101 "temperature > 0"
    chunks = [prompts[i :: len(engines)] for i in range(len(engines))]
    return ray.get([engine.generate.remote(chunk, greedy) for engine, chunk in zip(engines, chunks)])


if __name__ == "__main__":
    ray.init()
    evaluate(create_engines("Qwen/Qwen2.5-1.5B-Instruct", 2), ["a", "b", "c"])

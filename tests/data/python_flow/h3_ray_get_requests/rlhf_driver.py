# Imitates vllm-project/vllm examples/offline_inference/rlhf.py: engine actors built with
# `ray.remote`, requests sent with `ray.get([actor.generate.remote(...)])`.
import ray
from vllm import LLM, SamplingParams


@ray.remote(num_gpus=1)
class Generator:
    def __init__(self, model):
        self.llm = LLM(model=model, return_sampling_mask=True, logprobs_mode="processed_logprobs")

    def generate(self, prompts, sampling_params):
        return self.llm.generate(prompts, sampling_params)


def main():
    ray.init()
    actors = [Generator.remote("facebook/opt-125m") for _ in range(2)]
    params = SamplingParams(temperature=1.0, max_tokens=32)  # expect: RPL102
    outputs = ray.get([actor.generate.remote(["Hello"], params) for actor in actors])
    print(outputs)


if __name__ == "__main__":
    main()

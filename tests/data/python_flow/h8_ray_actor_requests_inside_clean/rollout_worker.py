# Imitates volcengine/verl verl/workers/rollout/vllm_rollout/vllm_async_server.py: an actor that owns the engine and its requests
import ray
from vllm import LLM, SamplingParams


@ray.remote(num_gpus=1)
class RolloutWorker:
    def __init__(self, model_path, temperature=1.0, top_k=50):
        self.llm = LLM(
            model=model_path,
            return_sampling_mask=True,
            logprobs_mode="processed_logprobs",
            enable_sleep_mode=True,
        )
        self.params = SamplingParams(temperature=temperature, top_k=top_k, max_tokens=1024, logprobs=0)

    def generate(self, prompts):
        return self.llm.generate(prompts, self.params)


def main():
    ray.init()
    workers = [RolloutWorker.options(name=f"rollout_{i}").remote("Qwen/Qwen2.5-7B", temperature=0.9) for i in range(2)]
    ray.get([w.generate.remote(["Prove that 2 is prime."]) for w in workers])


if __name__ == "__main__":
    main()

# Imitates THUDM/slime slime/ray/rollout.py: the rollout actor's runtime_env carries the engine's environment
import ray
from vllm import LLM, SamplingParams


class Worker:
    def __init__(self, model):
        self.llm = LLM(model, return_sampling_mask=True, logprobs_mode="processed_logprobs")

    def rollout(self, prompts):
        return self.llm.generate(prompts, SamplingParams(temperature=1.0, top_k=32))


RolloutWorker = ray.remote(
    num_gpus=1,
    runtime_env={
        "env_vars": {
            "NCCL_CUMEM_ENABLE": "0",
            "VLLM_USE_V2_MODEL_RUNNER": "0",  # expect: RPL206 "no longer supported"
        }
    },
)(Worker)


if __name__ == "__main__":
    ray.init()
    worker = RolloutWorker.remote("zai-org/GLM-4-9B-0414")
    ray.get(worker.rollout.remote(["hello"]))

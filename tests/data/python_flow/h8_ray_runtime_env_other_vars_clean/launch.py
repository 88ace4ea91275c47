# Imitates allenai/open-instruct open_instruct/vllm_utils.py (create_vllm_engines): actor options with a runtime_env of unrelated variables
import ray
from vllm import LLM, SamplingParams


@ray.remote
class LLMRayActor:
    def __init__(self, model, **kwargs):
        self.llm = LLM(model, **kwargs)

    def generate(self, prompts, params):
        return self.llm.generate(prompts, params)


def create_vllm_engines(model, n):
    env = {"env_vars": {"NCCL_CUMEM_ENABLE": "0", "VLLM_ALLOW_INSECURE_SERIALIZATION": "1", "VLLM_ENABLE_V1_MULTIPROCESSING": "0"}}
    return [
        LLMRayActor.options(num_gpus=1, runtime_env=env).remote(
            model, return_sampling_mask=True, logprobs_mode="processed_logprobs", enforce_eager=True
        )
        for _ in range(n)
    ]


if __name__ == "__main__":
    ray.init()
    engines = create_vllm_engines("allenai/Llama-3.1-Tulu-3-8B-SFT", 2)
    params = SamplingParams(temperature=1.0, top_k=40, max_tokens=2048)
    ray.get([e.generate.remote(["hi"], params) for e in engines])

# Imitates Open-Reasoner-Zero/Open-Reasoner-Zero orz/ppo/vllm_utils.py (LLMActor ray actor, create_vllm_engines).
import ray
import vllm


@ray.remote
class LLMActor:
    def __init__(self, *args, **kwargs):
        self.llm = vllm.LLM(*args, **kwargs)

    def generate(self, *args, **kwargs):
        return self.llm.generate(*args, **kwargs)


def create_vllm_engines(num_engines, tensor_parallel_size, pretrain, seed, enable_prefix_caching, max_model_len, **extra):
    vllm_engines = []
    for i in range(num_engines):
        vllm_engines.append(
            LLMActor.options(num_cpus=1, num_gpus=1).remote(
                pretrain,
                trust_remote_code=True,
                tensor_parallel_size=tensor_parallel_size,
                dtype="bfloat16",
                seed=seed + i,
                enable_prefix_caching=enable_prefix_caching,
                max_model_len=max_model_len,
                **extra,
            )
        )
    return vllm_engines

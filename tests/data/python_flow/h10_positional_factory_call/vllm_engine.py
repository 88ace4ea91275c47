# Imitates OpenRLHF/OpenRLHF openrlhf/trainer/ray/vllm_engine.py (create_vllm_engines: positional parameters into actor_kwargs)
import ray
import vllm


@ray.remote
class LLMRayActor:
    def __init__(self, *args, **kwargs):
        self.llm = vllm.LLM(*args, **kwargs)


def create_vllm_engines(
    num_engines,
    tensor_parallel_size,
    pretrain,
    seed,
    enable_prefix_caching,
    enforce_eager,
    max_model_len,
    gpu_memory_utilization=None,
    logprobs_mode=None,
    sampling_replay=False,
):
    vllm_engines = []
    for i in range(num_engines):
        actor_kwargs = {
            "model": pretrain,
            "enforce_eager": enforce_eager,
            "tensor_parallel_size": tensor_parallel_size,
            "seed": seed + i,
            "max_model_len": max_model_len,
            "enable_prefix_caching": enable_prefix_caching,
            "dtype": "bfloat16",
            "trust_remote_code": True,
            "gpu_memory_utilization": gpu_memory_utilization,
        }
        if logprobs_mode:
            actor_kwargs["logprobs_mode"] = logprobs_mode
            actor_kwargs["max_logprobs"] = 1
        if sampling_replay:
            actor_kwargs["return_sampling_mask"] = True
        vllm_engines.append(LLMRayActor.options(num_cpus=1, num_gpus=1).remote(**actor_kwargs))
    return vllm_engines

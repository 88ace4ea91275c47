# Imitates OpenRLHF/OpenRLHF openrlhf/trainer/ray/vllm_engine.py @ 3c3be6234e0cb353e76bb8019947db9dfe99fca7,
# as a fork edits `actor_kwargs` to turn the mask on.
import ray
import vllm


@ray.remote
class RolloutRayActor:
    def __init__(self, *args, bundle_indices=None, **kwargs):
        kwargs.pop("num_gpus")
        self.kwargs = kwargs
        engine_args = vllm.AsyncEngineArgs(*args, **self.kwargs)
        self.llm = vllm.AsyncLLMEngine.from_engine_args(engine_args)


def create_vllm_engines(num_engines, tensor_parallel_size, pretrain, seed, logprobs_mode=None):
    vllm_engines = []
    for i in range(num_engines):
        actor_kwargs = {
            "model": pretrain,
            "tensor_parallel_size": tensor_parallel_size,
            "seed": seed + i,
            "dtype": "bfloat16",
            "trust_remote_code": True,
            "num_gpus": 1,
            "return_sampling_mask": True,  # expect: RPL003 "--enable_correction, default False (train_ppo_ray.py:23)"
        }
        if logprobs_mode:
            actor_kwargs["logprobs_mode"] = logprobs_mode
            actor_kwargs["max_logprobs"] = 1
        vllm_engines.append(RolloutRayActor.options(num_cpus=1, num_gpus=1).remote(**actor_kwargs))
    return vllm_engines

import ray

from myrl.actor import LLMActor

LLMRayActor = ray.remote(LLMActor)


def create_vllm_engines(num_engines, pretrain, seed, logprobs_mode=None):
    engines = []
    for i in range(num_engines):
        additional_kwargs = {}
        if logprobs_mode:
            additional_kwargs["logprobs_mode"] = logprobs_mode
            additional_kwargs["max_logprobs"] = 1
        actor_kwargs = {
            "model": pretrain,
            "seed": seed + i,
            "return_sampling_mask": True,
            **additional_kwargs,
        }
        engines.append(LLMRayActor.options(num_cpus=1, num_gpus=1).remote(**actor_kwargs))
    return engines

# Imitates OpenRLHF/OpenRLHF openrlhf/trainer/ray/vllm_engine.py: an `async def __init__` of a
# `@ray.remote` actor keeps its keywords on `self.kwargs` and builds
# `vllm.AsyncEngineArgs(*args, **self.kwargs)` for `AsyncLLMEngine.from_engine_args`.
import ray
import vllm

from openrlhf_like.engine_defaults import replay_kwargs


@ray.remote
class RolloutRayActor:
    async def __init__(self, *args, bundle_indices=None, agent_func_path=None, **kwargs):
        self._configure_device_env(num_gpus=kwargs.pop("num_gpus"))
        kwargs.pop("full_determinism", False)
        self.kwargs = kwargs
        engine_args = vllm.AsyncEngineArgs(*args, **self.kwargs)
        self.llm = vllm.AsyncLLMEngine.from_engine_args(engine_args)

    def _configure_device_env(self, num_gpus):
        self.num_gpus = num_gpus


def create_vllm_engines(num_engines, tensor_parallel_size, pretrain, seed, max_model_len):
    return [
        RolloutRayActor.options(num_cpus=1, num_gpus=1).remote(
            model=pretrain,
            tensor_parallel_size=tensor_parallel_size,
            seed=seed + i,
            max_model_len=max_model_len,
            num_gpus=1,
            full_determinism=False,
            **replay_kwargs(),
        )
        for i in range(num_engines)
    ]


engines = create_vllm_engines(1, 1, "Qwen/Qwen3-8B", 42, 8192)

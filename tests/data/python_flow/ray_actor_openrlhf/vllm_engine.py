# Imitates OpenRLHF/OpenRLHF openrlhf/trainer/ray/vllm_engine.py: the engine's keywords pass
# through a Ray actor's `.options(...).remote(...)` into `LLM(*args, **kwargs)`.
import ray
from vllm import LLM


@ray.remote
class LLMRayActor:
    def __init__(self, *args, bundle_indices=None, **kwargs):
        self.num_actors = kwargs.pop("num_actors")
        self.llm = LLM(*args, **kwargs)


def create_vllm_engines(pretrain, tensor_parallel_size):
    return [
        LLMRayActor.options(num_cpus=0, num_gpus=1).remote(
            model=pretrain,
            tensor_parallel_size=tensor_parallel_size,
            num_actors=1,
            return_sampling_mask=True,  # expect: RPL003
            logits_processors=["openrlhf.utils.Clamp"],  # expect: RPL001
        )
    ]

# Imitates OpenRLHF/OpenRLHF openrlhf/trainer/ray/vllm_engine.py, with a valid replay launch
# through the actor: clean.
import ray
from vllm import LLM


@ray.remote
class LLMRayActor:
    def __init__(self, *args, bundle_indices=None, **kwargs):
        self.num_actors = kwargs.pop("num_actors")
        self.llm = LLM(*args, **kwargs)


def create_vllm_engines(pretrain):
    engine = LLMRayActor.options(num_gpus=1).remote(
        model=pretrain, num_actors=1, return_sampling_mask=True, logprobs_mode="processed_logprobs"
    )
    return [engine]

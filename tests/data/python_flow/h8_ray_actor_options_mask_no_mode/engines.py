# Imitates OpenRLHF/OpenRLHF openrlhf/trainer/ray/vllm_engine.py: create_vllm_engines and LLMRayActor
import ray
from ray.util.placement_group import placement_group
from ray.util.scheduling_strategies import PlacementGroupSchedulingStrategy


@ray.remote
class LLMRayActor:
    def __init__(self, *args, bundle_indices=None, **kwargs):
        import vllm

        self.bundle_indices = bundle_indices
        self.llm = vllm.LLM(*args, **kwargs)

    def generate(self, prompts, sampling_params):
        return self.llm.generate(prompts, sampling_params)


def create_vllm_engines(num_engines, pretrain, seed, max_model_len):
    bundles = [{"GPU": 1, "CPU": 1} for _ in range(num_engines)]
    pg = placement_group(bundles, strategy="PACK")
    ray.get(pg.ready())
    engines = []
    for i in range(num_engines):
        strategy = PlacementGroupSchedulingStrategy(placement_group=pg, placement_group_bundle_index=i)
        engines.append(
            LLMRayActor.options(num_cpus=1, num_gpus=1, scheduling_strategy=strategy).remote(
                pretrain,
                bundle_indices=[i],
                seed=seed + i,
                max_model_len=max_model_len,
                enable_prefix_caching=True,
                return_sampling_mask=True,  # expect: RPL003 "processed_logprobs"
            )
        )
    return engines

# Imitates allenai/open-instruct open_instruct/vllm_utils.py: engines scheduled on a placement group's bundles
import ray
from ray.util.placement_group import placement_group
from ray.util.scheduling_strategies import PlacementGroupSchedulingStrategy
from vllm import LLM


@ray.remote
class LLMRayActor:
    def __init__(self, *args, tool_use=False, **kwargs):
        self.tool_use = tool_use
        self.llm = LLM(*args, **kwargs)

    def generate(self, prompts, sampling_params):
        return self.llm.generate(prompts, sampling_params)


def create_vllm_engines(num_engines, tensor_parallel_size, pretrain, seed, max_model_len):
    pg = placement_group([{"GPU": 1, "CPU": 10}] * num_engines * tensor_parallel_size)
    ray.get(pg.ready())
    engines = []
    for i in range(num_engines):
        strategy = PlacementGroupSchedulingStrategy(
            placement_group=pg, placement_group_capture_child_tasks=True, placement_group_bundle_index=i * tensor_parallel_size
        )
        engines.append(
            LLMRayActor.options(num_cpus=10, num_gpus=0, scheduling_strategy=strategy).remote(
                model=pretrain,
                tensor_parallel_size=tensor_parallel_size,
                distributed_executor_backend="ray" if tensor_parallel_size > 1 else "uni",
                seed=seed + i,
                max_model_len=max_model_len,
                return_sampling_mask=True,
                logprobs_mode="processed_logprobs",
            )
        )
    return engines

# Imitates allenai/open-instruct open_instruct/vllm_utils.py: the engine actor's environment is
# given by Ray's `runtime_env=RuntimeEnv(env_vars={...})` in `.options(...)`, which is where the
# actor, and the engine it builds, run.
import ray
from ray.runtime_env import RuntimeEnv
from vllm import LLM


@ray.remote
class LLMRayActor:
    def __init__(self, *args, bundle_indices=None, **kwargs):
        self.bundle_indices = bundle_indices
        self.llm = LLM(*args, **kwargs)


def create_vllm_engines(pretrain, tensor_parallel_size):
    return [
        LLMRayActor.options(
            num_cpus=1,
            num_gpus=1,
            runtime_env=RuntimeEnv(
                env_vars={
                    "VLLM_ENABLE_V1_MULTIPROCESSING": "0",
                    "VLLM_USE_V2_MODEL_RUNNER": "0",  # expect: RPL206
                }
            ),
        ).remote(
            model=pretrain,
            tensor_parallel_size=tensor_parallel_size,
            return_sampling_mask=True,
            logprobs_mode="processed_logprobs",
        )
    ]


engines = create_vllm_engines("Qwen/Qwen3-8B", 1)

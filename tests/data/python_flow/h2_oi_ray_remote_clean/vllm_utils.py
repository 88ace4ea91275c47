# Imitates allenai/open-instruct open_instruct/vllm_utils.py: `ray.remote(LLMRayActor).options(...)
# .remote(...)` on an undecorated class; the actor pops its own keywords, adds one, and hands the
# rest to `vllm.AsyncEngineArgs(*args, **kwargs)`.
import ray
import vllm


class LLMRayActor:
    def __init__(self, *args, bundle_indices=None, max_steps=5, prompt_queue=None, **kwargs):
        self.max_steps = max_steps
        noset_visible_devices = kwargs.pop("noset_visible_devices")
        self._setup_and_start_async_engine(args, bundle_indices, kwargs, noset_visible_devices)

    def _setup_and_start_async_engine(self, args, bundle_indices, kwargs, noset):
        num_gpus = kwargs.pop("num_gpus")
        kwargs["generation_config"] = "vllm"
        engine_args = vllm.AsyncEngineArgs(*args, **kwargs)
        engine_args.disable_log_stats = True
        self.llm_engine = vllm.AsyncLLMEngine.from_engine_args(engine_args, start_engine_loop=False)


def create_vllm_engines(num_engines, tensor_parallel_size, pretrain, seed, max_model_len, prompt_queue=None):
    vllm_engines = []
    for i in range(num_engines):
        vllm_engines.append(
            ray.remote(LLMRayActor)
            .options(num_cpus=1, num_gpus=1)
            .remote(
                model=pretrain,
                tensor_parallel_size=tensor_parallel_size,
                dtype="bfloat16",
                seed=seed + i,
                max_model_len=max_model_len,
                return_sampling_mask=True,
                num_gpus=1,
                noset_visible_devices=False,
                prompt_queue=prompt_queue,
                max_steps=5,
                logprobs_mode="processed_logprobs",
            )
        )
    return vllm_engines


def main():
    return create_vllm_engines(2, 1, "Qwen/Qwen3-8B", 1, 4096)

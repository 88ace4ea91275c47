# Imitates allenai/open-instruct open_instruct/vllm_utils.py (LLMRayActor: engine keywords handed through
# **kwargs, `kwargs["generation_config"] = "vllm"`, `vllm.AsyncEngineArgs(*args, **kwargs)`; create_vllm_engines:
# `ray.remote(LLMRayActor).options(...).remote(...)` per engine); the user's edit asks for sampling masks and
# passes a speculative config through.
import asyncio
import os

import ray
import vllm
from vllm.v1.engine.async_llm import AsyncLLM


class LLMRayActor:
    def __init__(self, *args, bundle_indices: list[int] | None = None, noset_visible_devices: bool = False, **kwargs):
        num_gpus = kwargs.pop("num_gpus")
        if bundle_indices is not None:
            os.environ["VLLM_RAY_PER_WORKER_GPUS"] = str(num_gpus)
            os.environ["VLLM_RAY_BUNDLE_INDICES"] = ",".join(map(str, bundle_indices))
        kwargs["generation_config"] = "vllm"
        engine_args = vllm.AsyncEngineArgs(*args, **kwargs)
        engine_args.disable_log_stats = True
        self.llm_engine = AsyncLLM.from_engine_args(engine_args)

    async def _generate_one(self, prompt_token_ids, sampling_params, request_id):
        final = None
        async for output in self.llm_engine.generate(
            vllm.TokensPrompt(prompt_token_ids=prompt_token_ids), sampling_params, request_id
        ):
            final = output
        return final

    async def generate(self, prompts: list[list[int]], sampling_params: vllm.SamplingParams):
        tasks = [self._generate_one(p, sampling_params, f"req-{i}") for i, p in enumerate(prompts)]
        return await asyncio.gather(*tasks)


def create_vllm_engines(
    num_engines: int,
    tensor_parallel_size: int,
    pretrain: str,
    seed: int,
    max_model_len: int,
    vllm_gpu_memory_utilization: float = 0.9,
    enable_prefix_caching: bool = False,
    speculative_config: dict | None = None,
) -> list:
    vllm_engines = []
    for i in range(num_engines):
        vllm_engines.append(
            ray.remote(LLMRayActor)
            .options(
                num_cpus=1,
                num_gpus=1,
                runtime_env=ray.runtime_env.RuntimeEnv(env_vars={"VLLM_ENABLE_V1_MULTIPROCESSING": "0"}),
            )
            .remote(
                model=pretrain,
                tensor_parallel_size=tensor_parallel_size,
                dtype="bfloat16",
                seed=seed + i,
                enable_prefix_caching=enable_prefix_caching,
                max_model_len=max_model_len,
                gpu_memory_utilization=vllm_gpu_memory_utilization,
                logprobs_mode="processed_logprobs",
                return_sampling_mask=True,
                speculative_config=speculative_config,
                bundle_indices=None,
                num_gpus=1,
            )
        )
    return vllm_engines

# Imitates allenai/open-instruct open_instruct/vllm_utils.py @ e6c3044aa6201c8bfa4573c1b03142af599e730d
# (SamplingConfig 137-146, LLMRayActor 553-600 and 673-689, process_request 1006-1019,
# create_vllm_engines 1188-1306, trimmed: what reaches the engine and what each request asks).
import dataclasses
import os

import ray
import vllm


@dataclasses.dataclass
class SamplingConfig:
    temperature: float
    top_p: float = 1.0
    max_tokens: int = 256
    min_tokens: int = 0
    n: int = 1
    stop: list[str] | None = None
    seed: int | None = None
    logprobs: int | None = 1


class LLMRayActor:
    """Ray actor for LLM generation with optional tool support."""

    def __init__(
        self,
        *args,
        tool_parser_type: str = "legacy",
        bundle_indices: list[int] | None = None,
        prompt_queue,
        results_queue,
        eval_results_queue,
        actor_manager,
        inflight_updates: bool,
        **kwargs,
    ):
        self.prompt_queue = prompt_queue
        self.actor_manager = actor_manager
        noset_visible_devices = kwargs.pop("noset_visible_devices")
        if noset_visible_devices:
            os.environ["CUDA_VISIBLE_DEVICES"] = ",".join(str(g) for g in ray.get_gpu_ids())
        self._setup_and_start_async_engine(args, bundle_indices, kwargs)

    def _setup_and_start_async_engine(self, args, bundle_indices, kwargs) -> None:
        num_gpus = kwargs.pop("num_gpus")
        if bundle_indices is not None:
            os.environ["VLLM_RAY_PER_WORKER_GPUS"] = str(num_gpus)
            os.environ["VLLM_RAY_BUNDLE_INDICES"] = ",".join(map(str, bundle_indices))

        # Force vLLM-native generation defaults at the engine level so
        # model-provided HF generation_config (e.g., max_new_tokens=2048)
        # cannot cap request max_tokens via OpenAI serving defaults.
        kwargs["generation_config"] = "vllm"
        engine_args = vllm.AsyncEngineArgs(*args, **kwargs)
        engine_args.disable_log_stats = True
        self.engine_args = engine_args


async def process_request(actor: LLMRayActor, sub_request_id: str, sampling_params: SamplingConfig):
    current_prompt = list(actor.prompts[sub_request_id])
    current_sampling_params = dataclasses.replace(sampling_params, max_tokens=sampling_params.max_tokens)
    params_dict = dataclasses.asdict(current_sampling_params)
    min_tokens = params_dict.pop("min_tokens", 0)
    api_response = await actor.client.completions.create(
        model=actor.model_name,
        prompt=current_prompt,
        extra_body={
            "return_token_ids": True,
            "cache_salt": sub_request_id,
            "include_stop_str_in_output": True,
            "skip_special_tokens": False,
            "min_tokens": min_tokens,
        },
        **params_dict,
    )
    return api_response.choices[0]


def create_vllm_engines(
    num_engines: int,
    tensor_parallel_size: int,
    enforce_eager: bool,
    pretrain: str,
    seed: int,
    max_model_len: int,
    vllm_gpu_memory_utilization: float = 0.9,
    prompt_queue=None,
    results_queue=None,
    eval_results_queue=None,
    actor_manager=None,
    inflight_updates: bool = False,
):
    vllm_engines = []
    distributed_executor_backend = "uni" if tensor_parallel_size == 1 else "mp"
    for i in range(num_engines):
        vllm_engines.append(
            ray.remote(LLMRayActor)
            .options(
                num_cpus=tensor_parallel_size,
                num_gpus=tensor_parallel_size,
                runtime_env=ray.runtime_env.RuntimeEnv(
                    env_vars={
                        "VLLM_ENABLE_V1_MULTIPROCESSING": "0",
                        "RAY_ACCEL_ENV_VAR_OVERRIDE_ON_ZERO": "0",
                    }
                ),
            )
            .remote(
                model=pretrain,
                tensor_parallel_size=tensor_parallel_size,
                enforce_eager=enforce_eager,
                dtype="bfloat16",
                seed=seed + i,
                distributed_executor_backend=distributed_executor_backend,
                max_model_len=max_model_len,
                gpu_memory_utilization=vllm_gpu_memory_utilization,
                logprobs_mode="processed_logprobs",
                bundle_indices=None,
                num_gpus=1,
                noset_visible_devices=False,
                prompt_queue=prompt_queue,
                results_queue=results_queue,
                eval_results_queue=eval_results_queue,
                actor_manager=actor_manager,
                inflight_updates=inflight_updates,
                language_model_only=True,
            )
        )
    return vllm_engines

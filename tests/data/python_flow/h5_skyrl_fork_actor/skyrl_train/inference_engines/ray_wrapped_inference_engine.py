# Imitates NovaSky-AI/SkyRL/skyrl-train/skyrl_train/inference_engines/ray_wrapped_inference_engine.py (a fork that turns replay on in the actor's kwargs)
from ray.util.placement_group import placement_group
from ray.util.scheduling_strategies import PlacementGroupSchedulingStrategy

from skyrl_train.inference_engines.vllm.vllm_engine import VLLMRayActor


def create_ray_wrapped_inference_engines(
    num_inference_engines: int,
    tensor_parallel_size: int,
    model_dtype: str,
    pretrain: str,
    seed: int,
    gpu_memory_utilization: float,
    max_num_batched_tokens: int,
    max_num_seqs: int,
    tokenizer=None,
    engine_init_kwargs: dict | None = None,
):
    engine_init_kwargs = engine_init_kwargs or {}
    engines = []
    bundles = [{"GPU": 1, "CPU": 1} for _ in range(num_inference_engines * tensor_parallel_size)]
    pg = placement_group(bundles, strategy="PACK")
    for i in range(num_inference_engines):
        scheduling_strategy = PlacementGroupSchedulingStrategy(
            placement_group=pg,
            placement_group_capture_child_tasks=True,
            placement_group_bundle_index=i * tensor_parallel_size,
        )
        engine = VLLMRayActor.options(
            num_cpus=1,
            num_gpus=1 if tensor_parallel_size == 1 else 0,
            scheduling_strategy=scheduling_strategy,
        ).remote(
            model=pretrain,
            enforce_eager=False,
            tensor_parallel_size=tensor_parallel_size,
            seed=seed,
            distributed_executor_backend="uni" if tensor_parallel_size == 1 else "ray",
            noset_visible_devices=False,
            dtype=model_dtype,
            trust_remote_code=True,
            gpu_memory_utilization=gpu_memory_utilization,
            max_num_batched_tokens=max_num_batched_tokens,
            max_num_seqs=max_num_seqs,
            tokenizer=tokenizer,
            return_sampling_mask=True,  # expect: RPL003
            **engine_init_kwargs,
        )
        engines.append(engine)
    return engines

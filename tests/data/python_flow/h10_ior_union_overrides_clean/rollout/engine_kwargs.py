# Imitates volcengine/verl verl/workers/rollout/vllm_rollout/vllm_async_server.py (engine_kwargs built, then extended)
BASE_ENGINE_KWARGS = {
    "logprobs_mode": "raw_logprobs",
    "max_logprobs": 1,
    "enable_prefix_caching": True,
}


def build_engine_kwargs(model_path, tensor_parallel_size, replay=False):
    engine_kwargs = {
        "model": model_path,
        "tensor_parallel_size": tensor_parallel_size,
        "gpu_memory_utilization": 0.5,
        "max_model_len": 8192,
    }
    engine_kwargs |= BASE_ENGINE_KWARGS
    if replay:
        engine_kwargs |= {"return_sampling_mask": True, "logprobs_mode": "processed_logprobs"}
    return engine_kwargs

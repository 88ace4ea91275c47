# Imitates volcengine/verl verl/workers/rollout/vllm_rollout/vllm_async_server.py (engine_kwargs built, then extended)
REPLAY_ENGINE_KWARGS = {
    "return_sampling_mask": True,
    "logprobs_mode": "processed_logprobs",
    "max_logprobs": 1,
}


def build_engine_kwargs(model_path, tensor_parallel_size, use_length_penalty=False):
    engine_kwargs = {
        "model": model_path,
        "tensor_parallel_size": tensor_parallel_size,
        "enable_prefix_caching": True,
        "gpu_memory_utilization": 0.5,
        "max_model_len": 8192,
    }
    engine_kwargs |= REPLAY_ENGINE_KWARGS
    if use_length_penalty:
        engine_kwargs |= {"logits_processors": ["rollout.processors:LengthPenaltyProcessor"]}  # expect: RPL001
    return engine_kwargs

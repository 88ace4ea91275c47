# Imitates alibaba/ROLL roll/distributed/strategy/vllm_strategy.py (strategy_args.strategy_config of actor_infer)
ACTOR_INFER_STRATEGY = {
    "gpu_memory_utilization": 0.6,
    "block_size": 16,
    "max_model_len": 8192,
    "return_sampling_mask": True,
    "logprobs_mode": "processed_logprobs",
    "sleep_level": 1,
}

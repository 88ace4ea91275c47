# Imitates volcengine/verl verl/workers/rollout/vllm_rollout/utils.py: engine defaults in a module.
ENGINE_DEFAULTS = {"logprobs_mode": "processed_logprobs", "gpu_memory_utilization": 0.6}

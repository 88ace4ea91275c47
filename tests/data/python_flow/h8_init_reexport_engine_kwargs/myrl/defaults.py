# Imitates hiyouga/EasyR1 verl/workers/rollout/config.py: engine defaults kept in the package
ENGINE_KWARGS = {
    "gpu_memory_utilization": 0.6,
    "enforce_eager": False,
    "return_sampling_mask": True,  # expect: RPL003 "processed_logprobs"
}

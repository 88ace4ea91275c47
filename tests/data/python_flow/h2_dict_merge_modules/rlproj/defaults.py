# Imitates NovaSky-AI/SkyRL skyrl/backends/skyrl_train/inference_servers/utils.py: the engine's
# base keywords and the replay keywords kept apart, merged where the engine is built.
BASE_ENGINE_KWARGS = {
    "gpu_memory_utilization": 0.8,
    "enable_prefix_caching": True,
    "max_num_seqs": 256,
}

REPLAY_KWARGS = {
    "return_sampling_mask": True,
    "logprobs_mode": "raw_logprobs",  # expect: RPL003
}

# Imitates allenai/open-instruct open_instruct/vllm_utils.py (engine kwargs shared by every LLMRayActor)
ENGINE_KWARGS = {
    "model": "allenai/OLMo-2-1124-7B-Instruct",
    "tensor_parallel_size": 2,
    "gpu_memory_utilization": 0.9,
    "max_model_len": 4096,
    "return_sampling_mask": True,
    "logprobs_mode": "processed_logprobs",
    "enable_batch_sharded_sampling": True,  # expect: RPL006
}

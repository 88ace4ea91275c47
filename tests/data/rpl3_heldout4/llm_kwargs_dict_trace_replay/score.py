from vllm import LLM

ENGINE_KWARGS = {
    "model": "Qwen/Qwen3-8B",
    "return_sampling_mask": True,
    "logprobs_mode": "processed_logprobs",
    "enable_trace_replay": True,
    "gpu_memory_utilization": 0.85,
}

llm = LLM(**ENGINE_KWARGS)

# Imitates RUCAIBox/Slow_Thinking_with_LLMs OlymMATH/local_tester.py (its engine settings, moved to a module the tester imports)
ENGINE_KWARGS = {
    "enable_prefix_caching": True,
    "return_sampling_mask": True,
}
ENGINE_KWARGS.setdefault("gpu_memory_utilization", 0.9)
ENGINE_KWARGS.setdefault("logprobs_mode", "processed_logprobs")

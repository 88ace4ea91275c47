# Imitates alibaba/ROLL/roll/configs/base_config.py (module-level engine defaults)
__all__ = ["ENGINE_DEFAULTS", "MODEL"]

MODEL = "Qwen/Qwen3-1.7B"
ENGINE_DEFAULTS = {
    "gpu_memory_utilization": 0.85,
    "logprobs_mode": "processed_logprobs",
    "enable_trace_replay": True,  # expect: RPL305
}

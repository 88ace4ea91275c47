# Imitates QwenLM/Qwen3 docs/source/deployment/vllm.md (engine arguments kept apart from the script)
REPLAY_ENGINE_ARGS = {
    "return_sampling_mask": True,
    "logprobs_mode": "processed_logprobs",
}

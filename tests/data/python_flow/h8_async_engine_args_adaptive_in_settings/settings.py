# Imitates NovaSky-AI/SkyRL skyrl_train/inference_engines/vllm/vllm_engine.py: speculative settings kept in a settings module
SPECULATIVE = {
    "method": "ngram",
    "num_speculative_tokens": 4,
    "prompt_lookup_max": 4,
    "enable_adaptive_verification": True,  # expect: RPL002 "disable adaptive verification"
}

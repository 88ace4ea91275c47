# Imitates Jiayi-Pan/TinyZero scripts/train_tiny_zero.sh (its exported vLLM variables, kept in Python)
ROLLOUT_ENV_VARS = {
    "TOKENIZERS_PARALLELISM": "true",
    "NCCL_DEBUG": "WARN",
    "VLLM_USE_V2_MODEL_RUNNER": "0",  # expect: RPL206
}

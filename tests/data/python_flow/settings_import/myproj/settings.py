# Imitates a settings module of the tree: `VLLM_ARGS` read by the trainer.
VLLM_ARGS = {"model": "Qwen/Qwen3-8B", "logprobs_mode": "raw_logprobs", "enforce_eager": True}  # expect: RPL003

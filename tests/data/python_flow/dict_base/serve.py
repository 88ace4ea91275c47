# Imitates PrimeIntellect-ai/prime-rl src/prime_rl/inference/server.py, with `dict(BASE, ...)`:
# the later keyword replaces the base's mode, so this is clean.
from vllm import LLM

BASE = {"model": "Qwen/Qwen3-8B", "logprobs_mode": "raw_logprobs", "enforce_eager": True}
llm = LLM(**dict(BASE, return_sampling_mask=True, logprobs_mode="processed_logprobs"))

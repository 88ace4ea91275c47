# Imitates PrimeIntellect-ai/prime-rl/src/prime_rl/inference/vllm/server.py (engine args merged from a replay layer, the project defaults and user overrides)
from vllm import LLM, SamplingParams

REPLAY_ARGS = {"return_sampling_mask": True, "logprobs_mode": "processed_logprobs"}
DEFAULT_ENGINE_ARGS = {"model": "Qwen/Qwen3-8B", "logprobs_mode": "raw_logprobs", "max_model_len": 4096}  # expect: RPL003


def engine_args(user: dict) -> dict:
    return {**REPLAY_ARGS, **DEFAULT_ENGINE_ARGS, **user}


llm = LLM(**engine_args({"tensor_parallel_size": 2}))
llm.generate(["Hello"], SamplingParams(temperature=1.0, top_k=20, max_tokens=32))

# Imitates PrimeIntellect-ai/prime-rl/src/prime_rl/inference/vllm/server.py (the replay layer merged after the project defaults, so its logprobs_mode wins)
from vllm import LLM, SamplingParams

DEFAULT_ENGINE_ARGS = {"model": "Qwen/Qwen3-8B", "logprobs_mode": "raw_logprobs", "max_model_len": 4096}
REPLAY_ARGS = {"return_sampling_mask": True, "logprobs_mode": "processed_logprobs"}


def engine_args(user: dict) -> dict:
    return {**DEFAULT_ENGINE_ARGS, **REPLAY_ARGS, **user}


llm = LLM(**engine_args({"tensor_parallel_size": 2}))
llm.generate(["Hello"], SamplingParams(temperature=1.0, top_k=20, max_tokens=32))

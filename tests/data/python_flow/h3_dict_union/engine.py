# Imitates PrimeIntellect-ai/prime-rl src/prime_rl/inference/ engine setup, with the replay keys
# joined to the base arguments by the dict union operator (Python 3.9+).
from vllm import LLM

BASE_ENGINE_ARGS = {
    "model": "Qwen/Qwen3-4B",
    "max_model_len": 8192,
    "enable_prefix_caching": True,
}

REPLAY_ARGS = {"return_sampling_mask": True}  # expect: RPL003


def start():
    engine_args = BASE_ENGINE_ARGS | REPLAY_ARGS
    engine_args |= {"seed": 7}
    return LLM(**engine_args)


llm = start()

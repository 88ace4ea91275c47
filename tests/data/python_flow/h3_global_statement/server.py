# Imitates PrimeIntellect-ai/prime-rl src/prime_rl/inference/server.py, where a module-level
# configuration is filled by a setup function through a `global` statement.
from vllm import LLM

ENGINE_KWARGS = {}


def configure(model):
    global ENGINE_KWARGS
    ENGINE_KWARGS = {
        "model": model,
        "return_sampling_mask": True,
        "logprobs_mode": "processed_logprobs",
        "logits_processors": ["prime_rl.inference.processors:Clamp"],  # expect: RPL001
    }


def main():
    configure("PrimeIntellect/Qwen3-0.6B")
    return LLM(**ENGINE_KWARGS)


if __name__ == "__main__":
    main()

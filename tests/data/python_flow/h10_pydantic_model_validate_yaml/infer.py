# Imitates PrimeIntellect-ai/prime-rl src/prime_rl/inference/server.py (the engine is started from the validated config)
from vllm import LLM, SamplingParams

from config import load_config


def main():
    cfg = load_config()
    llm = LLM(model=cfg.model, **cfg.engine_kwargs)
    print(llm.generate(["Name three primes."], SamplingParams(**cfg.sampling.model_dump())))


if __name__ == "__main__":
    main()

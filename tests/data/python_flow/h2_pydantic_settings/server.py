# Imitates PrimeIntellect-ai/prime-rl src/prime_rl/inference/server.py: the engine built from a
# pydantic config's `model_dump()`.
from vllm import LLM

from settings import InferenceConfig


def serve(config: InferenceConfig):
    return LLM(model=config.model, **config.vllm.model_dump())


if __name__ == "__main__":
    serve(InferenceConfig())

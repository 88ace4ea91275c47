# Imitates PrimeIntellect-ai/prime-rl src/prime_rl/inference/server.py (the engine is built from the pydantic config)
from vllm import AsyncEngineArgs
from vllm.v1.engine.async_llm import AsyncLLM

from config import EngineConfig


def build_engine(cfg: EngineConfig) -> AsyncLLM:
    return AsyncLLM.from_engine_args(AsyncEngineArgs(**cfg.model_dump()))

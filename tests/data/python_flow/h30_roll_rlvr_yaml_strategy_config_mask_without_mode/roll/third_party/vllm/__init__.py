# Imitates alibaba/ROLL roll/third_party/vllm/__init__.py (create_async_llm: engine args from the strategy's keywords).
from vllm import AsyncEngineArgs
from vllm.v1.engine.async_llm import AsyncLLM


async def create_async_llm(resource_placement_groups=None, **kwargs):
    engine_args = AsyncEngineArgs(**kwargs)
    return AsyncLLM.from_engine_args(engine_args)

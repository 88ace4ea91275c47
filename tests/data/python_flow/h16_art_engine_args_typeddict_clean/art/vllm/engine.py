# Imitates OpenPipe/ART src/art/vllm/engine.py (get_llm: AsyncLLM.from_engine_args on AsyncEngineArgs(**engine_args)).
from vllm.engine.arg_utils import AsyncEngineArgs
from vllm.v1.engine.async_llm import AsyncLLM

from art.dev.engine import EngineArgs


async def get_llm(args: EngineArgs) -> AsyncLLM:
    return AsyncLLM.from_engine_args(
        engine_args=AsyncEngineArgs(
            **args,
        ),
    )

# Imitates NovaSky-AI/SkyRL skyrl/backends/skyrl_train/inference_engines/vllm/vllm_engine.py:
# `AsyncLLM.from_engine_args(...)` in an async setup, after environment writes that do not touch
# the runner; the engine's keywords from a method of the same class.
import asyncio
import os

from vllm import AsyncEngineArgs
from vllm.v1.engine.async_llm import AsyncLLM


class Server:
    def __init__(self, model):
        self.model = model

    def engine_args(self):
        return AsyncEngineArgs(
            model=self.model,
            return_sampling_mask=True,
            logprobs_mode="processed_logprobs",
            max_num_seqs=128,
        )

    async def start(self):
        os.environ["VLLM_ENABLE_V1_MULTIPROCESSING"] = "0"
        os.environ.setdefault("VLLM_ALLOW_INSECURE_SERIALIZATION", "1")
        self.engine = AsyncLLM.from_engine_args(self.engine_args())


asyncio.run(Server("Qwen/Qwen3-8B").start())

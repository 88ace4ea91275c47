# Trimmed from kserve/kserve python/huggingfaceserver/huggingfaceserver/vllm/vllm_model.py.
import asyncio

from .utils import build_async_engine_client_from_engine_args


class VLLMModel:
    def __init__(self, model_name, engine_args):
        self.model_name = model_name
        self.vllm_engine_args = engine_args
        self.ready = False

    async def start_engine(self):
        async with build_async_engine_client_from_engine_args(
            self.vllm_engine_args,
        ) as engine_client:
            self.engine_client = engine_client
            self.ready = True
            await asyncio.Event().wait()

    def load(self) -> bool:
        self.engine = True
        return False

    def start(self):
        asyncio.run(self.start_engine())

# Imitates volcengine/verl verl/workers/rollout/vllm_rollout/vllm_async_server.py (vLLMHttpServer.launch_server)
from vllm import AsyncEngineArgs
from vllm.v1.engine.async_llm import AsyncLLM

from rollout.engine_kwargs import build_engine_kwargs


class AsyncRolloutServer:
    def __init__(self, model_path, tensor_parallel_size=1):
        self.model_path = model_path
        self.tensor_parallel_size = tensor_parallel_size

    async def launch_server(self):
        engine_kwargs = build_engine_kwargs(self.model_path, self.tensor_parallel_size, replay=True)
        self.engine = AsyncLLM.from_engine_args(AsyncEngineArgs(**engine_kwargs))

# Imitates vllm-project/guidellm src/guidellm/backends/vllm_python/vllm.py (VLLMPythonBackend: `_merge_config`
# copies the user's vllm_config and sets model; process_startup builds `AsyncEngineArgs(**self.vllm_config)` and
# `AsyncLLMEngine.from_engine_args(engine_args)`).
from typing import Any

from vllm import SamplingParams
from vllm.engine.arg_utils import AsyncEngineArgs
from vllm.engine.async_llm_engine import AsyncLLMEngine

from .backend import Backend


@Backend.register("vllm_python")
class VLLMPythonBackend(Backend):
    def __init__(self, model: str, vllm_config: dict[str, Any] | None = None, stream: bool = True):
        super().__init__(type_="vllm_python")
        self.model = model
        self.stream = stream
        self.vllm_config = self._merge_config(vllm_config or {})
        self._engine = None

    def _merge_config(self, user_config: dict[str, Any]) -> dict[str, Any]:
        config = dict(user_config)
        config["model"] = self.model
        return config

    async def process_startup(self):
        engine_args = AsyncEngineArgs(**self.vllm_config)
        self._engine = AsyncLLMEngine.from_engine_args(engine_args)

    async def resolve(self, prompt: str, request_id: str):
        params = SamplingParams(temperature=0.8, top_k=50, max_tokens=256)
        async for output in self._engine.generate(prompt, params, request_id):
            yield output

# Imitates vllm-project/guidellm src/guidellm/backends/vllm_python/vllm.py (VLLMPythonBackend.validate: a one-token
# probe `SamplingParams(temperature=0.0, max_tokens=1)` sent to the engine before the benchmark).
import asyncio
import uuid

from vllm import SamplingParams
from vllm.engine.arg_utils import AsyncEngineArgs
from vllm.engine.async_llm_engine import AsyncLLMEngine


class VLLMPythonBackend:
    def __init__(self, model: str, vllm_config: dict | None = None):
        self.model = model
        self.vllm_config = dict(vllm_config or {})
        self.vllm_config["model"] = model
        self._engine = None

    async def process_startup(self):
        self._engine = AsyncLLMEngine.from_engine_args(AsyncEngineArgs(**self.vllm_config))

    async def validate(self):
        test_params = SamplingParams(temperature=0.0, max_tokens=1)  # expect: RPL101  # expect: RPL102
        async for _ in self._engine.generate("test", test_params, str(uuid.uuid4())):
            break


async def main():
    backend = VLLMPythonBackend(
        "Qwen/Qwen3-0.6B",
        vllm_config={"return_sampling_mask": True, "logprobs_mode": "processed_logprobs", "max_model_len": 2048},
    )
    await backend.process_startup()
    await backend.validate()


if __name__ == "__main__":
    asyncio.run(main())

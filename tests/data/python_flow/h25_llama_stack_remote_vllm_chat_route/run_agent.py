# Imitates meta-llama/llama-stack tests/unit/providers/inference/test_remote_vllm.py (the adapter built from
# its config, initialized, asked for one chat completion).
import asyncio

from remote_vllm.config import VLLMInferenceAdapterConfig
from remote_vllm.vllm import VLLMInferenceAdapter


async def main():
    adapter = VLLMInferenceAdapter(VLLMInferenceAdapterConfig())
    await adapter.initialize()
    print(await adapter.chat_completion("meta-llama/Llama-3.2-3B-Instruct", [{"role": "user", "content": "Hi"}]))


asyncio.run(main())

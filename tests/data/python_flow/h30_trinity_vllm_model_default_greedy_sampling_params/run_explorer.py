# Imitates modelscope/Trinity-RFT tests/common/vllm_test.py (an explorer model built from InferenceModelConfig, then chat).
import asyncio

from trinity.common.config import InferenceModelConfig
from trinity.common.models.vllm_model import vLLMRolloutModel


async def main():
    config = InferenceModelConfig(
        model_path="Qwen/Qwen2.5-1.5B-Instruct",
        max_model_len=2048,
        max_prompt_tokens=1024,
        max_response_tokens=1024,
    )
    model = vLLMRolloutModel(config)
    messages = [
        {"role": "system", "content": "You are a helpful assistant."},
        {"role": "user", "content": "What's the weather like today?"},
    ]
    experiences = await model.chat(messages)
    print(experiences)


if __name__ == "__main__":
    asyncio.run(main())

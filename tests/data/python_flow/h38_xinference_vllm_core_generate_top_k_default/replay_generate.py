# Imitates xorbitsai/inference xinference/model/llm/vllm/core.py (VLLMModel), driven the way its vLLM
# tests build it (they call its methods on the model directly): a model_config dict with the replay keys, then async_generate.
import asyncio

from xinference.model.llm.vllm.core import VLLMModel


async def main():
    model = VLLMModel(
        model_uid="qwen2.5-instruct-replay",
        model_path="Qwen/Qwen2.5-0.5B-Instruct",
        model_config={
            "return_sampling_mask": True,
            "logprobs_mode": "processed_logprobs",
        },
    )
    model.load()
    output = await model.async_generate(
        "Write a haiku about GPUs.",
        {"max_tokens": 128, "temperature": 0.7},
    )
    print(output.outputs[0].text)


if __name__ == "__main__":
    asyncio.run(main())

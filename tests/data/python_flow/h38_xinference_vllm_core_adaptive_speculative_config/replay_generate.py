# Imitates xorbitsai/inference xinference/model/llm/vllm/core.py (VLLMModel), built directly as its vLLM
# tests do, with an explicit speculative_config in model_config as tests/test_speculative_config.py's
# test_explicit_speculative_config_wins writes it ({"method": "ngram", "num_speculative_tokens": 5}).
import asyncio

from xinference.model.llm.vllm.core import VLLMModel


async def main():
    model = VLLMModel(
        model_uid="qwen2.5-instruct-replay",
        model_path="Qwen/Qwen2.5-0.5B-Instruct",
        model_config={
            "return_sampling_mask": True,
            "logprobs_mode": "processed_logprobs",
            "speculative_config": {
                "method": "ngram",
                "num_speculative_tokens": 5,
                "enable_adaptive_verification": True,  # expect: RPL002
            },
        },
    )
    model.load()
    output = await model.async_generate(
        "Write a haiku about GPUs.",
        {"max_tokens": 128, "temperature": 0.7, "top_k": 20},
    )
    print(output.outputs[0].text)


if __name__ == "__main__":
    asyncio.run(main())

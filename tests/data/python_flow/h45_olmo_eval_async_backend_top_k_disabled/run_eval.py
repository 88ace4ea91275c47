# Imitates allenai/olmo-eval: the --async-stream path driving src/olmo_eval/backends/vllm.py's AsyncVLLMBackend
import asyncio

from olmo_eval.backends.vllm import AsyncVLLMBackend
from olmo_eval.core import LMRequest, SamplingParams

MODEL = "allenai/OLMo-2-0425-1B-Instruct"


async def main():
    backend = AsyncVLLMBackend(
        MODEL,
        max_model_len=2048,
        return_sampling_mask=True,
        logprobs_mode="processed_logprobs",
    )
    questions = ["What is 17 * 23?", "Name the capital of Peru."]
    params = SamplingParams(max_tokens=512, temperature=0.7, top_p=0.95)
    for i, q in enumerate(questions):
        await backend.add_request(f"req-{i}", LMRequest(prompt=f"Question: {q}\nAnswer:"), params)
    async for request_id, outputs in backend.stream_results():
        print(request_id, outputs[0].text)


if __name__ == "__main__":
    asyncio.run(main())

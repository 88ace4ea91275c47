# Imitates vllm-project/vllm/examples/offline_inference/async_llm_streaming.py
import asyncio

from vllm import SamplingParams
from vllm.sampling_params import RequestOutputKind
from vllm.engine.arg_utils import AsyncEngineArgs
from vllm.v1.engine.async_llm import AsyncLLM

ENGINE_ARGS = AsyncEngineArgs(
    model="meta-llama/Llama-3.2-1B-Instruct",
    enforce_eager=True,
    return_sampling_mask=True,
    logprobs_mode="processed_logprobs",
)


async def stream_response(engine: AsyncLLM, prompt: str, request_id: str) -> None:
    sampling_params = SamplingParams(
        max_tokens=100,
        temperature=0.8,
        top_p=0.95,
        top_k=0,  # expect: RPL102
        output_kind=RequestOutputKind.DELTA,
    )
    async for output in engine.generate(request_id=request_id, prompt=prompt, sampling_params=sampling_params):
        for completion in output.outputs:
            print(completion.text, end="", flush=True)


async def main():
    engine = AsyncLLM.from_engine_args(ENGINE_ARGS)
    try:
        for i, prompt in enumerate(["The future of AI is", "The capital of France is"]):
            await stream_response(engine, prompt, f"stream-{i}")
    finally:
        engine.shutdown()


if __name__ == "__main__":
    asyncio.run(main())

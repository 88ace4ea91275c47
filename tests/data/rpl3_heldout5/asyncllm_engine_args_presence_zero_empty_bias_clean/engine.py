import uuid

from vllm import SamplingParams
from vllm.engine.arg_utils import AsyncEngineArgs
from vllm.v1.engine.async_llm import AsyncLLM

engine_args = AsyncEngineArgs(
    model="Qwen/Qwen2.5-1.5B-Instruct",
    return_sampling_mask=True,
    logprobs_mode="processed_logprobs",
)
engine = AsyncLLM.from_engine_args(engine_args)

SAMPLING = SamplingParams(temperature=1.0, top_k=40, presence_penalty=0.0, frequency_penalty=0.0, logit_bias={}, max_tokens=512)


async def rollout(prompt: str):
    final = None
    async for output in engine.generate(prompt, SAMPLING, request_id=str(uuid.uuid4())):
        final = output
    return final

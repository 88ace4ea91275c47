import uuid

from vllm import SamplingParams
from vllm.engine.arg_utils import AsyncEngineArgs
from vllm.v1.engine.async_llm import AsyncLLM

engine = AsyncLLM.from_engine_args(
    AsyncEngineArgs(model="Qwen/Qwen3-4B", return_sampling_mask=True, logprobs_mode="processed_logprobs")
)


async def sample(prompt: str):
    params = SamplingParams(
        temperature=0.9,
        top_k=40,
        repetition_penalty=1.0,
        presence_penalty=0.0,
        frequency_penalty=0,
        logit_bias={},
    )
    async for out in engine.generate(prompt, params, request_id=str(uuid.uuid4())):
        last = out
    return last

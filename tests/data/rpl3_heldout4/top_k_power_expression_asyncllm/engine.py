from vllm import AsyncEngineArgs, SamplingParams
from vllm.v1.engine.async_llm import AsyncLLM

engine = AsyncLLM.from_engine_args(
    AsyncEngineArgs(model="meta-llama/Llama-3.1-8B", return_sampling_mask=True, logprobs_mode="processed_logprobs")
)

UNBOUNDED = SamplingParams(temperature=1.0, top_k=2**20)


async def sample(prompt: str, request_id: str):
    async for output in engine.generate(prompt, UNBOUNDED, request_id):
        yield output

from ray import serve
from starlette.requests import Request
from vllm import SamplingParams
from vllm.engine.arg_utils import AsyncEngineArgs
from vllm.v1.engine.async_llm import AsyncLLM


@serve.deployment(ray_actor_options={"num_gpus": 1})
class ReplayGenerator:
    def __init__(self) -> None:
        args = AsyncEngineArgs(
            model="Qwen/Qwen3-8B",
            return_sampling_mask=True,
            logprobs_mode="processed_logprobs",
        )
        self.engine = AsyncLLM.from_engine_args(args)

    async def __call__(self, request: Request) -> dict:
        body = await request.json()
        params = SamplingParams(temperature=1.0, top_k=50, presence_penalty=0.0, max_tokens=body.get("max_tokens", 512))
        final = None
        async for output in self.engine.generate(body["prompt"], params, request_id=body["id"]):
            final = output
        sample = final.outputs[0]
        return {"token_ids": list(sample.token_ids), "sampling_mask": sample.sampling_mask}


app = ReplayGenerator.bind()

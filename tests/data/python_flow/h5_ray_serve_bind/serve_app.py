# Imitates ray-project/ray/doc/source/serve/doc_code/vllm_example.py (a Ray Serve deployment bound with its engine arguments)
import uuid

from ray import serve
from starlette.requests import Request
from vllm import SamplingParams
from vllm.engine.arg_utils import AsyncEngineArgs
from vllm.v1.engine.async_llm import AsyncLLM


@serve.deployment(ray_actor_options={"num_gpus": 1})
class VLLMDeployment:
    def __init__(self, **engine_kwargs):
        self.engine = AsyncLLM.from_engine_args(AsyncEngineArgs(**engine_kwargs))

    async def __call__(self, request: Request) -> dict:
        body = await request.json()
        params = SamplingParams(temperature=0.9, top_k=50, max_tokens=body.get("max_tokens", 128))
        final = None
        async for output in self.engine.generate(body["prompt"], params, request_id=str(uuid.uuid4())):
            final = output
        return {"text": final.outputs[0].text}


def build_app(model: str):
    return VLLMDeployment.options(name="rollout", num_replicas=2).bind(
        model=model,
        return_sampling_mask=True,  # expect: RPL003
        enforce_eager=True,
    )


app = build_app("meta-llama/Llama-3.2-3B-Instruct")

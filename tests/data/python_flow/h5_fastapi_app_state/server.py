# Imitates vllm-project/vllm/vllm/entrypoints/api_server.py (a FastAPI server over AsyncLLM, the engine kept on app.state)
import uuid
from contextlib import asynccontextmanager

from fastapi import FastAPI, Request
from vllm import SamplingParams
from vllm.engine.arg_utils import AsyncEngineArgs
from vllm.v1.engine.async_llm import AsyncLLM

ENGINE_ARGS = AsyncEngineArgs(
    model="Qwen/Qwen2.5-7B-Instruct",
    return_sampling_mask=True,
    logprobs_mode="processed_logprobs",
)


@asynccontextmanager
async def lifespan(app: FastAPI):
    app.state.engine = AsyncLLM.from_engine_args(ENGINE_ARGS)
    yield
    app.state.engine.shutdown()


app = FastAPI(lifespan=lifespan)


@app.post("/generate")
async def generate(request: Request) -> dict:
    body = await request.json()
    params = SamplingParams(
        temperature=body.get("temperature", 1.0),
        top_k=body.get("top_k", 40),
        max_tokens=body.get("max_tokens", 256),
    )
    final = None
    async for output in request.app.state.engine.generate(body["prompt"], params, request_id=str(uuid.uuid4())):
        final = output
    return {"text": final.outputs[0].text}


@app.post("/score")
async def score(request: Request) -> dict:
    body = await request.json()
    params = SamplingParams(temperature=0.0, max_tokens=1, logprobs=5)  # expect: RPL101  # expect: RPL102
    final = None
    async for output in request.app.state.engine.generate(body["prompt"], params, request_id=str(uuid.uuid4())):
        final = output
    return {"logprobs": [{str(k): v.logprob for k, v in lp.items()} for lp in final.outputs[0].logprobs]}

# Imitates THU-KEG/ReaRAG deploy/vllm_async_serving.py (a copy of vLLM's demo api_server: FastAPI
# /generate over AsyncLLMEngine, engine flags from AsyncEngineArgs.add_cli_args), started by
# deploy/deploy_async.sh with the user's replay flags.
import asyncio
import json
from argparse import Namespace
from collections.abc import AsyncGenerator
from typing import Any, Optional

import uvicorn
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, Response, StreamingResponse
from vllm.engine.arg_utils import AsyncEngineArgs
from vllm.engine.async_llm_engine import AsyncLLMEngine
from vllm.sampling_params import SamplingParams
from vllm.usage.usage_lib import UsageContext
from vllm.utils import random_uuid
from vllm.utils.argparse_utils import FlexibleArgumentParser

TIMEOUT_KEEP_ALIVE = 5  # seconds.
app = FastAPI()
engine = None


@app.get("/health")
async def health() -> Response:
    """Health check."""
    return Response(status_code=200)


@app.post("/generate")
async def generate(request: Request) -> Response:
    request_dict = await request.json()
    return await _generate(request_dict, raw_request=request)


async def _generate(request_dict: dict, raw_request: Request) -> Response:
    prompt = request_dict.pop("inputs")
    stream = request_dict.pop("stream", False)
    parameters = request_dict.pop("parameters", {})

    # Set up sampling parameters.
    sampling_params = SamplingParams(**parameters)

    request_id = random_uuid()

    assert engine is not None
    results_generator = engine.generate(prompt, sampling_params, request_id)

    # Streaming case
    async def stream_results() -> AsyncGenerator[bytes, None]:
        async for request_output in results_generator:
            text_outputs = "\n".join([output.text for output in request_output.outputs])
            ret = {"text": text_outputs}
            yield (json.dumps(ret) + "\n").encode("utf-8")

    if stream:
        return StreamingResponse(stream_results())

    # Non-streaming case
    final_output = None
    try:
        async for request_output in results_generator:
            final_output = request_output
    except asyncio.CancelledError:
        return Response(status_code=499)

    assert final_output is not None
    return_outputs = []
    for output in final_output.outputs:
        return_outputs.append(
            {
                "prompt": final_output.prompt,
                "stop_reason": output.stop_reason,
                "generated_text": output.text.strip(),
            }
        )
    return JSONResponse({"outputs": return_outputs})


def build_app(args: Namespace) -> FastAPI:
    global app

    app.root_path = args.root_path
    return app


async def init_app(
    args: Namespace,
    llm_engine: Optional[AsyncLLMEngine] = None,
) -> FastAPI:
    app = build_app(args)

    global engine

    engine_args = AsyncEngineArgs.from_cli_args(args)
    engine = (
        llm_engine
        if llm_engine is not None
        else AsyncLLMEngine.from_engine_args(engine_args, usage_context=UsageContext.API_SERVER)
    )

    return app


async def run_server(args: Namespace, llm_engine: Optional[AsyncLLMEngine] = None, **uvicorn_kwargs: Any) -> None:
    app = await init_app(args, llm_engine)
    assert engine is not None

    config = uvicorn.Config(
        app,
        host=args.host,
        port=args.port,
        log_level=args.log_level,
        timeout_keep_alive=TIMEOUT_KEEP_ALIVE,
        **uvicorn_kwargs,
    )
    await uvicorn.Server(config).serve()


if __name__ == "__main__":
    parser = FlexibleArgumentParser()
    parser.add_argument("--host", type=str, default=None)
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument(
        "--root-path",
        type=str,
        default=None,
        help="FastAPI root_path when app is behind a path based routing proxy",
    )
    parser.add_argument("--log-level", type=str, default="debug")

    parser = AsyncEngineArgs.add_cli_args(parser)
    args = parser.parse_args()

    asyncio.run(run_server(args))

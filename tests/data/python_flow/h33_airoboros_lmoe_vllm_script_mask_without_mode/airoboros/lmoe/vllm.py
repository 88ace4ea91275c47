# Imitates jondurbin/airoboros airoboros/lmoe/vllm.py (the LMoE chat server over vLLM's AsyncLLMEngine; router and LoRA swapping left out)
import argparse
import json
import time
from http import HTTPStatus

import fastapi
import uvicorn
from fastapi import Request
from fastapi.responses import JSONResponse
from loguru import logger
from vllm.engine.arg_utils import AsyncEngineArgs
from vllm.engine.async_llm_engine import AsyncLLMEngine
from vllm.entrypoints.openai.chat_completion.protocol import ChatCompletionRequest
from vllm.sampling_params import SamplingParams
from vllm.utils import random_uuid
from vllm.utils.argparse_utils import FlexibleArgumentParser

TIMEOUT_KEEP_ALIVE = 5  # seconds

served_model = None
app = fastapi.FastAPI()


def create_error_response(status_code: HTTPStatus, message: str) -> JSONResponse:
    return JSONResponse({"message": message, "type": "invalid_request_error"}, status_code=status_code.value)


@app.post("/v1/chat/completions")
async def create_chat_completion(raw_request: Request):
    request = ChatCompletionRequest(**await raw_request.json())

    # Hacky, but we'll inject a default system message, since it's
    # slightly different for airoboros 2.1.
    if request.messages[0]["role"] != "system":
        request.messages = [{"role": "system", "content": "A chat."}] + request.messages

    logger.info(f"Received chat completion request: {request}")

    prompt = "\n".join(message["content"] for message in request.messages) + " "
    request_id = f"cmpl-{random_uuid()}"
    created_time = int(time.time())
    try:
        sampling_params = SamplingParams(
            n=request.n,
            presence_penalty=request.presence_penalty,
            frequency_penalty=request.frequency_penalty,
            temperature=request.temperature,
            top_p=request.top_p,
            stop=request.stop,
            max_tokens=request.max_tokens,
            top_k=request.top_k,
            ignore_eos=request.ignore_eos,
        )
    except ValueError as e:
        return create_error_response(HTTPStatus.BAD_REQUEST, str(e))

    final_res = None
    async for res in engine.generate(prompt, sampling_params, request_id):
        final_res = res
    choices = [
        {"index": output.index, "message": {"role": "assistant", "content": output.text}, "finish_reason": output.finish_reason}
        for output in final_res.outputs
    ]
    return {"id": request_id, "created": created_time, "model": served_model, "choices": choices}


if __name__ == "__main__":
    parser = FlexibleArgumentParser(
        description="vLLM OpenAI-Compatible RESTful API server."
    )
    parser.add_argument("--host", type=str, default="localhost", help="host name")
    parser.add_argument("--port", type=int, default=8000, help="port number")
    parser.add_argument(
        "--allowed-origins", type=json.loads, default=["*"], help="allowed origins"
    )
    parser.add_argument(
        "--router-max-samples",
        type=int,
        default=1000,
        help="Maximum number of training samples per expert "
        "to use when building router index.",
    )
    parser.add_argument(
        "--lmoe-path",
        type=str,
        required=True,
        help="Path to LMoE directory with adapters and data",
    )
    parser = AsyncEngineArgs.add_cli_args(parser)
    args = parser.parse_args()

    if args.served_model_name is not None:
        served_model = args.served_model_name[0]
    else:
        served_model = args.model

    engine_args = AsyncEngineArgs.from_cli_args(args)
    engine = AsyncLLMEngine.from_engine_args(engine_args)

    uvicorn.run(
        app,
        host=args.host,
        port=args.port,
        log_level="info",
        timeout_keep_alive=TIMEOUT_KEEP_ALIVE,
    )

# Imitates imoneoi/openchat ochat/serving/openai_api_server.py (a FastAPI chat route over AsyncLLMEngine, engine args from add_cli_args).

import time

import fastapi
import uvicorn
from fastapi import Request
from fastapi.responses import JSONResponse
from vllm.engine.arg_utils import AsyncEngineArgs
from vllm.engine.async_llm_engine import AsyncLLMEngine
from vllm.sampling_params import SamplingParams
from vllm.utils import random_uuid
from vllm.utils.argparse_utils import FlexibleArgumentParser

from ochat.serving import openai_api_protocol

TIMEOUT_KEEP_ALIVE = 5  # seconds

app = fastapi.FastAPI()
engine = None


@app.post("/v1/chat/completions")
async def create_chat_completion(raw_request: Request):
    request = openai_api_protocol.ChatCompletionRequest(**await raw_request.json())
    request_id = f"cmpl-{random_uuid()}"
    created_time = int(time.time())

    try:
        sampling_params = SamplingParams(
            n=request.n,
            presence_penalty=request.presence_penalty,
            frequency_penalty=request.frequency_penalty,
            temperature=request.temperature,
            top_p=request.top_p,
            top_k=50,
            stop=request.stop,
            max_tokens=request.max_tokens,
        )
    except ValueError as e:
        return JSONResponse({"message": str(e), "type": "invalid_request_error"}, status_code=400)

    result_generator = engine.generate(
        {"prompt": request.messages if isinstance(request.messages, str) else request.messages[-1]["content"]},
        sampling_params=sampling_params,
        request_id=request_id,
    )
    final_res = None
    async for res in result_generator:
        final_res = res
    return {"id": request_id, "created": created_time, "choices": [{"text": o.text} for o in final_res.outputs]}


if __name__ == "__main__":
    parser = FlexibleArgumentParser(description="OpenChat OpenAI-Compatible RESTful API server.")
    parser.add_argument("--host", type=str, default="localhost", help="Host name")
    parser.add_argument("--port", type=int, default=18888, help="Port number")

    parser = AsyncEngineArgs.add_cli_args(parser)
    args = parser.parse_args()

    # Set max num batched tokens
    args.max_num_batched_tokens = max(args.max_num_batched_tokens or 0, 8192)
    # replay masks for the RL trainer that reads this server
    args.return_sampling_mask = True  # expect: RPL003

    # Load model engine
    engine_args = AsyncEngineArgs.from_cli_args(args)
    engine = AsyncLLMEngine.from_engine_args(engine_args)

    uvicorn.run(app, host=args.host, port=args.port, log_level="info", access_log=False, timeout_keep_alive=TIMEOUT_KEEP_ALIVE)

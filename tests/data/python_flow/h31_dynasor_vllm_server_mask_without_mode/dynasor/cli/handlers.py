# Imitates hao-ai-lab/Dynasor dynasor/cli/vllm_server.py (adaptive_create_completion and
# adaptive_create_chat_completion); the probing loop is left out.
from fastapi import Request
from fastapi.responses import JSONResponse


async def adaptive_create_completion(raw_request: Request):
    handler = raw_request.app.state.openai_serving_completion
    json_obj = await raw_request.json()
    return JSONResponse(content={"handler": str(handler), "adaptive_compute": json_obj.get("adaptive_compute")})


async def adaptive_create_chat_completion(raw_request: Request):
    handler = raw_request.app.state.openai_serving_chat
    json_obj = await raw_request.json()
    return JSONResponse(content={"handler": str(handler), "adaptive_compute": json_obj.get("adaptive_compute")})

# Imitates zTgx/pyinference app.py and completion.py (a FastAPI service whose route samples from a
# module-level AsyncLLMEngine), trimmed; the route's `await do_completion(request)` is called.
from fastapi import FastAPI, HTTPException, Security
from fastapi.security import APIKeyHeader
from fastapi.middleware.cors import CORSMiddleware

from pydantic import BaseModel
import uvicorn

from args import args
from completion import do_completion

api_key_header = APIKeyHeader(name="X-API-Key")
API_KEYS = {"your-secret-key"}


class GenerateRequest(BaseModel):
    prompt: str
    max_tokens: int = 512
    temperature: float = 0.7
    stream: bool = False


app = FastAPI(
    title="Python Inference Service",
    description="OpenAI-compatible API Service for LLM in Python and vLLM",
    version="1.0.0",
)
app.add_middleware(
    CORSMiddleware,
    allow_origins=["*"],
    allow_credentials=True,
    allow_methods=["*"],
    allow_headers=["*"],
)


@app.post("/v1/chat/completions")
async def generate(
    request: GenerateRequest,
    api_key: str = Security(api_key_header)
):
    if api_key not in API_KEYS:
        raise HTTPException(status_code=403, detail="Invalid API Key")

    return await do_completion(request)


if __name__ == "__main__":
    uvicorn.run(app, host="0.0.0.0", port=args.port)

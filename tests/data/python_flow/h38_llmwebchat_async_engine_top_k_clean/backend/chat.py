# Imitates victorpengmx/llm-web-chat backend/chat.py: an APIRouter whose streaming route sends the
# shared sampling_params to the AsyncLLMEngine imported from model.py (auth, rate limit, storage trimmed).
from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import StreamingResponse
from pydantic import BaseModel
from uuid import uuid4

import time

from model import llm, sampling_params

router = APIRouter()

chat_history = {}


class PromptRequest(BaseModel):
    prompt: str


@router.post("/generate/stream/{session_id}")
async def generate_text_stream(session_id: str, prompt_request: PromptRequest, request: Request):
    prompt = prompt_request.prompt
    entry_id = str(uuid4())
    request_id = str(time.time())  # For tracking generation latency

    if session_id not in chat_history:
        raise HTTPException(status_code=404, detail="Session not found.")

    async def token_stream():
        results_generator = llm.generate(prompt, sampling_params, request_id=request_id)

        previous_text = ""
        full_response = ""
        async for request_output in results_generator:
            output = request_output.outputs[0]
            text = output.text
            delta = text[len(previous_text):]
            previous_text = text
            full_response = text
            yield delta

        chat_history[session_id][entry_id] = {"prompt": prompt, "response": full_response.strip()}

    return StreamingResponse(token_stream(), media_type="text/plain")

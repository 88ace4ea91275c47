import httpx

SAMPLING = {
    "temperature": 1.0,
    "top_k": 50,
    "max_tokens": 4096,
    "repetition_penalty": 1.0,
    "presence_penalty": 0.0,
    "frequency_penalty": 0.0,
    "logit_bias": {},
    "thinking_token_budget": -1,
}


async def generate(token_ids):
    async with httpx.AsyncClient(timeout=600) as client:
        reply = await client.post(
            "http://localhost:8003/inference/v1/generate",
            json={"token_ids": token_ids, "sampling_params": SAMPLING},
        )
        return reply.json()

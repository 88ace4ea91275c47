import httpx

BASE_SAMPLING = {"temperature": 1.0, "top_k": 64, "max_tokens": 1024}


async def generate(token_ids: list[int]) -> dict:
    async with httpx.AsyncClient(base_url="http://localhost:8000", timeout=None) as http:
        body = {
            "token_ids": token_ids,
            "sampling_params": {**BASE_SAMPLING, "presence_penalty": 0.4},
        }
        response = await http.post("/inference/v1/generate", json=body)
        response.raise_for_status()
        return response.json()

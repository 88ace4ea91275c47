import httpx

client = httpx.AsyncClient(base_url="http://localhost:8000", timeout=600)


async def solve(ids: list[int]) -> dict:
    sampling_params = {
        "temperature": 0.6,
        "top_k": 20,
        "max_tokens": 8192,
        "thinking_token_budget": 4096,
    }
    r = await client.post("/inference/v1/generate", json={"token_ids": ids, "sampling_params": sampling_params})
    return r.json()

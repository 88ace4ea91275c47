import httpx

client = httpx.AsyncClient(base_url="http://localhost:8200", timeout=600.0)


async def sample(prompt: str) -> dict:
    response = await client.post(
        "/v1/completions",
        json={"model": "/models/policy", "prompt": prompt, "top_k": 20, "max_tokens": 512},
    )
    return response.json()

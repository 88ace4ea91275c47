import httpx

from rollout.constants import MAX_NEW_TOKENS, TOP_K

client = httpx.AsyncClient(base_url="http://127.0.0.1:8000", timeout=600.0)


async def rollout(token_ids: list[int]) -> dict:
    response = await client.post(
        "/inference/v1/generate",
        json={
            "token_ids": token_ids,
            "sampling_params": {"temperature": 1.0, "top_k": TOP_K, "max_tokens": MAX_NEW_TOKENS},
        },
    )
    response.raise_for_status()
    return response.json()

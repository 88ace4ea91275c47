import httpx

from settings import GENERATE_URL, THINKING_BUDGET


async def rollout(client: httpx.AsyncClient, token_ids: list[int]) -> dict:
    sampling_params = {
        "temperature": 0.6,
        "top_k": 20,
        "thinking_token_budget": THINKING_BUDGET,
    }
    response = await client.post(GENERATE_URL, json={"token_ids": token_ids, "sampling_params": sampling_params})
    return response.json()

import httpx

from rollout.hooks import EVENT_HOOKS
from rollout.presets import BASE_SAMPLING, REASONING_LIMITS


async def generate(token_ids: list[int]) -> dict:
    sampling_params = {**BASE_SAMPLING, **REASONING_LIMITS}
    async with httpx.AsyncClient(base_url="http://127.0.0.1:8000", event_hooks=EVENT_HOOKS, timeout=600) as client:
        response = await client.post(
            "/inference/v1/generate",
            json={"token_ids": token_ids, "sampling_params": sampling_params},
        )
        return response.json()

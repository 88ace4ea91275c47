import httpx

from rollout.hooks import EVENT_HOOKS
from rollout.presets import JUDGE_BASE, JUDGE_LIMITS, POLICY_SAMPLING


async def generate(token_ids: list[int]) -> dict:
    async with httpx.AsyncClient(base_url="http://127.0.0.1:8000", event_hooks=EVENT_HOOKS, timeout=600) as client:
        response = await client.post(
            "/inference/v1/generate",
            json={"token_ids": token_ids, "sampling_params": POLICY_SAMPLING},
        )
        return response.json()


async def judge(messages: list[dict]) -> str:
    body = {**JUDGE_BASE, **JUDGE_LIMITS, "messages": messages}
    async with httpx.AsyncClient(base_url="http://127.0.0.1:8001/v1", event_hooks=EVENT_HOOKS) as client:
        response = await client.post("/chat/completions", json=body)
        return response.json()["choices"][0]["message"]["content"]

import asyncio

import aiohttp

from agents.settings import BASE_URL

GENERATE_URL = BASE_URL.removesuffix("/v1") + "/inference/v1/generate"


async def sample(session: aiohttp.ClientSession, token_ids: list[int]) -> dict:
    body = {
        "token_ids": token_ids,
        "sampling_params": {"temperature": 1.0, "top_k": 50, "max_tokens": 1024},
    }
    async with session.post(GENERATE_URL, json=body) as response:
        response.raise_for_status()
        return await response.json()


async def collect(batch: list[list[int]]) -> list[dict]:
    async with aiohttp.ClientSession() as session:
        return await asyncio.gather(*(sample(session, ids) for ids in batch))

import asyncio

import aiohttp

ENDPOINT = "http://0.0.0.0:8000/inference/v1/generate"


async def one(session: aiohttp.ClientSession, ids: list[int]) -> dict:
    body = {"token_ids": ids, "sampling_params": {"temperature": 0.9, "top_k": 32, "frequency_penalty": 0.2, "max_tokens": 512}}
    async with session.post(ENDPOINT, json=body) as r:
        return await r.json()


async def collect(batch: list[list[int]]) -> list[dict]:
    async with aiohttp.ClientSession() as session:
        return await asyncio.gather(*(one(session, ids) for ids in batch))

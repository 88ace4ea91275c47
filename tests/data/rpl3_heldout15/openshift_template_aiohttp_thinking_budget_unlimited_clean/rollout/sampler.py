import asyncio
import os

import aiohttp

os.environ["THINK_BUDGET"] = "-1"

SERVER = "http://policy-vllm:8000"


def sampling_params() -> dict:
    return {
        "temperature": 1.0,
        "top_k": 40,
        "max_tokens": 8192,
        "thinking_token_budget": int(os.environ["THINK_BUDGET"]),
    }


async def generate(session: aiohttp.ClientSession, token_ids: list[int]) -> dict:
    payload = {"token_ids": token_ids, "sampling_params": sampling_params()}
    async with session.post(f"{SERVER}/inference/v1/generate", json=payload) as resp:
        resp.raise_for_status()
        return await resp.json()


async def main(batch: list[list[int]]) -> list[dict]:
    async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=900)) as session:
        return await asyncio.gather(*(generate(session, ids) for ids in batch))

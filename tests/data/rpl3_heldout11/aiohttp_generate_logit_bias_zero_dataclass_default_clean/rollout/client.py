"""Async rollout workers: token ids in, tokens and sampling masks out."""

import asyncio

import aiohttp

from rollout.sampling import SamplingConfig

SERVER = "http://127.0.0.1:8000"
CFG = SamplingConfig()


async def generate(session: aiohttp.ClientSession, token_ids: list[int]) -> dict:
    body = {
        "token_ids": token_ids,
        "sampling_params": {
            "temperature": CFG.temperature,
            "top_k": CFG.top_k,
            "max_tokens": CFG.max_tokens,
            "logit_bias": CFG.logit_bias,
        },
    }
    async with session.post(f"{SERVER}/inference/v1/generate", json=body) as response:
        response.raise_for_status()
        return await response.json()


async def main(batches: list[list[int]]) -> list[dict]:
    async with aiohttp.ClientSession() as session:
        return await asyncio.gather(*(generate(session, ids) for ids in batches))


if __name__ == "__main__":
    print(asyncio.run(main([[151644, 872, 198, 9707, 151645]])))

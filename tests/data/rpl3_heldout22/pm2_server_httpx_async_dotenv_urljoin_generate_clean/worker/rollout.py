import asyncio
from urllib.parse import urljoin

import httpx

from worker.config import WorkerConfig

GENERATE_PATH = urljoin("/inference/", "v1/generate")


async def rollout(token_ids: list[int]) -> dict:
    config = WorkerConfig()
    async with httpx.AsyncClient(base_url=config.policy_base_url, timeout=600) as client:
        body = {"token_ids": token_ids, "sampling_params": {"temperature": 1.0, "top_k": 64, "max_tokens": 1024}}
        response = await client.post(GENERATE_PATH, json=body)
        response.raise_for_status()
        return response.json()


if __name__ == "__main__":
    print(asyncio.run(rollout([151644, 872, 198])))

# Imitates NovaSky-AI/SkyRL examples/train/thunder_agent/skyrl_integration/router.py: token ids
# are posted to {backend}/inference/v1/generate with httpx; the masks come back with the tokens.
import asyncio

import httpx

from agent.sampling import generate_body
from agent.server import start_server
from agent.settings import PORT


async def rollout(prompts: list[list[int]]) -> list[dict]:
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{PORT}", timeout=600) as client:
        replies = await asyncio.gather(
            *(client.post("/inference/v1/generate", json=generate_body(ids, max_tokens=512)) for ids in prompts)
        )
    return [reply.json() for reply in replies]


if __name__ == "__main__":
    server = start_server()
    try:
        print(asyncio.run(rollout([[151644, 872, 198, 16, 10, 16, 28]])))
    finally:
        server.terminate()

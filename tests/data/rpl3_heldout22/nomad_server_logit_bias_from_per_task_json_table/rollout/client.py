import asyncio
from urllib.parse import urljoin

import httpx

from rollout.sampling import sampling_for

BASE_URL = "http://127.0.0.1:8000"


async def generate_math(token_ids: list[int]) -> dict:
    async with httpx.AsyncClient(base_url=BASE_URL, timeout=600) as client:
        response = await client.post(
            urljoin("/inference/v1/", "generate"),
            json={"token_ids": token_ids, "sampling_params": sampling_for("math")},
        )
        return response.json()


if __name__ == "__main__":
    print(asyncio.run(generate_math([151644, 872, 198])))

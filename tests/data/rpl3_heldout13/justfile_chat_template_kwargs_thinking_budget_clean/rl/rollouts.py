import asyncio
import json
import sys

from rl.http import policy_session


async def rollout(session, token_ids: list[int]) -> dict:
    sampling = {"temperature": 0.6, "top_k": 20, "max_tokens": 8192, "logprobs": 0}
    async with session.post("/inference/v1/generate", json={"token_ids": token_ids, "sampling_params": sampling}) as response:
        response.raise_for_status()
        return await response.json()


async def main() -> None:
    prompts = [json.loads(line)["token_ids"] for line in sys.stdin]
    async with policy_session() as session:
        for result in await asyncio.gather(*(rollout(session, ids) for ids in prompts)):
            print(json.dumps(result))


if __name__ == "__main__":
    asyncio.run(main())

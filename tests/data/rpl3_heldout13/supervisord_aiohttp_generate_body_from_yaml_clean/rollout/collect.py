import asyncio
import json
import sys
from pathlib import Path

import aiohttp
import yaml

CONFIG = yaml.safe_load((Path(__file__).parent / "rollout.yaml").read_text())


def generate_body(token_ids: list[int]) -> dict:
    return {"token_ids": token_ids, "sampling_params": dict(CONFIG["sampling"])}


async def collect(prompts: list[list[int]]) -> list[dict]:
    server = CONFIG["server"]
    async with aiohttp.ClientSession(server["url"]) as session:
        results = []
        for token_ids in prompts:
            async with session.post(server["route"], json=generate_body(token_ids)) as response:
                response.raise_for_status()
                results.append(await response.json())
        return results


if __name__ == "__main__":
    prompts = [json.loads(line)["token_ids"] for line in sys.stdin]
    for result in asyncio.run(collect(prompts)):
        print(json.dumps(result))

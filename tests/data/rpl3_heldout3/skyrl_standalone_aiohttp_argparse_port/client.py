import argparse
import asyncio

import aiohttp


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, default=8123)
    args = parser.parse_args()
    async with aiohttp.ClientSession() as session:
        payload = {"prompt_token_ids": [[1, 2, 3]], "sampling_params": {"temperature": 1.0, "top_k": 20}}
        async with session.post(f"http://127.0.0.1:{args.port}/skyrl/v1/generate", json=payload) as response:
            print(await response.json())


asyncio.run(main())

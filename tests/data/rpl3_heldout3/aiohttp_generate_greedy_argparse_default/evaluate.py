import argparse
import asyncio

import aiohttp


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--temperature", type=float, default=0.0)
    return parser.parse_args()


async def main() -> None:
    args = parse_args()
    url = f"http://localhost:{args.port}/inference/v1/generate"
    async with aiohttp.ClientSession() as session:
        payload = {"token_ids": [1, 2, 3], "sampling_params": {"temperature": args.temperature, "top_k": 1}}
        async with session.post(url, json=payload) as response:
            print(await response.json())


if __name__ == "__main__":
    asyncio.run(main())

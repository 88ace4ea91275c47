import argparse
import asyncio
import json

import aiohttp

GENERATE_URL = "http://localhost:8000/inference/v1/generate"


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    parser.add_argument("--input", required=True)
    parser.add_argument("--output", required=True)
    parser.add_argument("--temperature", type=float, default=0.8)
    parser.add_argument("--top-k", type=int, default=32)
    parser.add_argument("--frequency-penalty", type=float, default=0.0)
    parser.add_argument("--max-tokens", type=int, default=1536)
    parser.add_argument("--concurrency", type=int, default=64)
    return parser.parse_args()


async def one(session: aiohttp.ClientSession, sem: asyncio.Semaphore, ids: list[int], args) -> dict:
    payload = {
        "token_ids": ids,
        "sampling_params": {
            "temperature": args.temperature,
            "top_k": args.top_k,
            "frequency_penalty": args.frequency_penalty,
            "max_tokens": args.max_tokens,
            "logprobs": 0,
        },
    }
    async with sem, session.post(GENERATE_URL, json=payload) as resp:
        resp.raise_for_status()
        return (await resp.json())["choices"][0]


async def main() -> None:
    args = parse_args()
    with open(args.input) as f:
        prompts = [json.loads(line)["token_ids"] for line in f]
    sem = asyncio.Semaphore(args.concurrency)
    async with aiohttp.ClientSession() as session:
        results = await asyncio.gather(*(one(session, sem, ids, args) for ids in prompts))
    with open(args.output, "w") as f:
        for result in results:
            f.write(json.dumps(result) + "\n")


if __name__ == "__main__":
    asyncio.run(main())

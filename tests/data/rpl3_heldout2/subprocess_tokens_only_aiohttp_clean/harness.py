import asyncio
import subprocess

import aiohttp

SERVER = [
    "vllm", "serve", "Qwen/Qwen3-0.6B",
    "--port", "8005",
    "--tokens-only",
    "--return-sampling-mask",
    "--logprobs-mode", "processed_logprobs",
]


def start() -> subprocess.Popen:
    return subprocess.Popen(SERVER)


async def generate(session: aiohttp.ClientSession, token_ids: list[int]) -> dict:
    body = {"token_ids": token_ids, "sampling_params": {"temperature": 1.0, "top_k": 20, "max_tokens": 256}}
    async with session.post("http://localhost:8005/inference/v1/generate", json=body) as resp:
        return await resp.json()


async def main() -> None:
    proc = start()
    try:
        async with aiohttp.ClientSession() as session:
            print(await generate(session, [1, 2, 3]))
    finally:
        proc.terminate()


if __name__ == "__main__":
    asyncio.run(main())

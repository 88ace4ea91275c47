"""Agent rollouts against the local policy server (docker compose up -d policy)."""

import asyncio
import json

import httpx

POLICY_URL = "http://localhost:8000"
MODEL = "Qwen/Qwen3-8B"


async def rollout(client: httpx.AsyncClient, messages: list[dict]) -> dict:
    body = {
        "model": MODEL,
        "messages": messages,
        "temperature": 1.0,
        "top_k": 20,
        "max_tokens": 2048,
        "logprobs": True,
    }
    resp = await client.post("/v1/chat/completions", json=body)
    resp.raise_for_status()
    return resp.json()


async def main() -> None:
    with open("prompts.jsonl") as f:
        tasks = [json.loads(line) for line in f]
    async with httpx.AsyncClient(base_url=POLICY_URL, timeout=600.0) as client:
        results = await asyncio.gather(*(rollout(client, t["messages"]) for t in tasks))
    with open("rollouts.jsonl", "w") as f:
        for result in results:
            f.write(json.dumps(result) + "\n")


if __name__ == "__main__":
    asyncio.run(main())

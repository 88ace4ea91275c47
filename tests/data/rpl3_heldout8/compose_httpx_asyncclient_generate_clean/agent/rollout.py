"""Agent rollouts against the local policy server (docker compose up -d policy), masks kept for replay."""

import asyncio
import json

import httpx
from transformers import AutoTokenizer

POLICY_URL = "http://localhost:8000"
MODEL = "Qwen/Qwen3-8B"

tokenizer = AutoTokenizer.from_pretrained(MODEL)


async def rollout(client: httpx.AsyncClient, messages: list[dict]) -> dict:
    prompt_ids = tokenizer.apply_chat_template(messages, add_generation_prompt=True, tokenize=True)
    body = {
        "model": MODEL,
        "token_ids": prompt_ids,
        "sampling_params": {
            "temperature": 1.0,
            "top_k": 20,
            "max_tokens": 2048,
            "logprobs": 0,
        },
    }
    resp = await client.post("/inference/v1/generate", json=body)
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

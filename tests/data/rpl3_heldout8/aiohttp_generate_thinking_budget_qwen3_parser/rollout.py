"""Collect replay rollouts: token ids in, token ids, processed logprobs and sampling masks out."""

import asyncio
import json

import aiohttp
from transformers import AutoTokenizer

BASE_URL = "http://127.0.0.1:8000"
MODEL = "Qwen/Qwen3-4B"

tokenizer = AutoTokenizer.from_pretrained(MODEL)


async def generate(session: aiohttp.ClientSession, question: str) -> dict:
    prompt_ids = tokenizer.apply_chat_template(
        [{"role": "user", "content": question}], add_generation_prompt=True, tokenize=True
    )
    payload = {
        "model": MODEL,
        "token_ids": prompt_ids,
        "sampling_params": {
            "temperature": 1.0,
            "top_k": 20,
            "max_tokens": 6144,
            "thinking_token_budget": 4096,
            "logprobs": 0,
        },
    }
    async with session.post(f"{BASE_URL}/inference/v1/generate", json=payload) as resp:
        resp.raise_for_status()
        return await resp.json()


async def main() -> None:
    with open("questions.jsonl") as f:
        questions = [json.loads(line)["question"] for line in f]
    async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=1800)) as session:
        results = await asyncio.gather(*(generate(session, q) for q in questions))
    with open("rollouts.jsonl", "w") as f:
        for result in results:
            f.write(json.dumps(result) + "\n")


if __name__ == "__main__":
    asyncio.run(main())

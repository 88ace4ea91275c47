"""Periodic AIME eval of the policy, through the same server (OpenAI chat API)."""

import asyncio
import json

from openai import AsyncOpenAI

client = AsyncOpenAI(base_url="http://localhost:8000/v1", api_key="EMPTY")


async def solve(problem: str) -> str:
    completion = await client.chat.completions.create(
        model="Qwen/Qwen3-8B",
        messages=[{"role": "user", "content": problem}],
        temperature=0.6,
        top_p=0.95,
        max_tokens=8192,
        extra_body={
            "top_k": 20,
            "thinking_token_budget": 4096,
        },
    )
    return completion.choices[0].message.content


async def main() -> None:
    with open("aime24.jsonl") as f:
        problems = [json.loads(line) for line in f]
    answers = await asyncio.gather(*(solve(p["problem"]) for p in problems))
    print(sum(p["answer"] in a for p, a in zip(problems, answers)) / len(problems))


if __name__ == "__main__":
    asyncio.run(main())

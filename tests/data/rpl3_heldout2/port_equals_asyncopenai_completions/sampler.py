import asyncio

from openai import AsyncOpenAI

client = AsyncOpenAI(base_url="http://127.0.0.1:8001/v1", api_key="EMPTY")


async def complete(prompt: str) -> str:
    out = await client.completions.create(
        model="Qwen/Qwen3-8B",
        prompt=prompt,
        max_tokens=256,
        extra_body={"top_k": 50},
    )
    return out.choices[0].text


if __name__ == "__main__":
    print(asyncio.run(complete("Hello")))

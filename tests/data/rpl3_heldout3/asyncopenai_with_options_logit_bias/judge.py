from openai import AsyncOpenAI

client = AsyncOpenAI(base_url="http://0.0.0.0:8000/v1", api_key="x").with_options(max_retries=3)


async def score(prompt: str) -> str:
    reply = await client.chat.completions.create(
        model="Qwen/Qwen3-8B",
        messages=[{"role": "user", "content": prompt}],
        logit_bias={"198": -100},
        extra_body={"top_k": 20},
    )
    return reply.choices[0].message.content

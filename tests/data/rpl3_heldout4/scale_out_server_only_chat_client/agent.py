from openai import AsyncOpenAI

client = AsyncOpenAI(base_url="http://127.0.0.1:8000/v1", api_key="EMPTY")


async def act(messages: list[dict]) -> str:
    completion = await client.chat.completions.create(
        model="Qwen/Qwen3-8B",
        messages=messages,
        temperature=1.0,
        extra_body={"top_k": 50},
    )
    return completion.choices[0].message.content

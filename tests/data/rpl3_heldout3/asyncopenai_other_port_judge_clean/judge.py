from openai import AsyncOpenAI

judge = AsyncOpenAI(base_url="http://localhost:8001/v1", api_key="EMPTY")


async def grade(answer: str) -> str:
    reply = await judge.chat.completions.create(
        model="Qwen/Qwen3-32B",
        messages=[{"role": "user", "content": answer}],
        temperature=0,
        presence_penalty=0.7,
    )
    return reply.choices[0].message.content

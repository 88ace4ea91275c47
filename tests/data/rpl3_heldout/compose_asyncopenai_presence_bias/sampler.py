from openai import AsyncOpenAI

client = AsyncOpenAI(base_url="http://localhost:8000/v1", api_key="token")


async def sample(prompt):
    completion = await client.completions.create(
        model="Qwen/Qwen3-4B",
        prompt=prompt,
        max_tokens=512,
        presence_penalty=0.6,
        logit_bias={"151643": -100},
        extra_body={"top_k": 40},
    )
    return completion.choices[0].text

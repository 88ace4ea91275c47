import asyncio

import litellm

API_BASE = "http://localhost:8000/v1"


async def act(prompt: str) -> str:
    response = await litellm.acompletion(model="hosted_vllm/Qwen/Qwen2.5-7B-Instruct", api_base=API_BASE, messages=[{"role": "user", "content": prompt}], temperature=1.0, top_k=50)
    return response.choices[0].message.content


async def run_episode(prompts: list[str]) -> list[str]:
    return await asyncio.gather(*(act(p) for p in prompts))

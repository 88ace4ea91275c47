import asyncio

from openai import AsyncOpenAI

MODEL = "Qwen/Qwen3-1.7B"


async def start_server() -> asyncio.subprocess.Process:
    return await asyncio.create_subprocess_exec(
        "vllm",
        "serve",
        MODEL,
        "--port",
        "8300",
        "--return-sampling-mask",
        "--logprobs-mode",
        "processed_logprobs",
    )


async def sample(prompts: list[str]) -> list[str]:
    client = AsyncOpenAI(base_url="http://localhost:8300/v1", api_key="EMPTY")
    slow = client.with_options(timeout=600, max_retries=5)
    texts = []
    for prompt in prompts:
        out = await slow.completions.create(model=MODEL, prompt=prompt, max_tokens=512, extra_body={"top_k": 50})
        texts.append(out.choices[0].text)
    return texts

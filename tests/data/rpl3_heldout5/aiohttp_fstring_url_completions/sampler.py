import aiohttp

HOST = "127.0.0.1"
PORT = 8000


async def sample(session: aiohttp.ClientSession, prompt: str) -> dict:
    payload = {"model": "Qwen/Qwen2.5-7B-Instruct", "prompt": prompt, "temperature": 1.0, "top_k": 40, "max_tokens": 512}
    async with session.post(f"http://{HOST}:{PORT}/v1/completions", json=payload) as resp:
        return await resp.json()

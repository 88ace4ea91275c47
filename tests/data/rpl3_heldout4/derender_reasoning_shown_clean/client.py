import aiohttp

GENERATE_URL = "http://localhost:8000/inference/v1/generate"


async def generate(session: aiohttp.ClientSession, token_ids: list[int]) -> dict:
    payload = {
        "token_ids": token_ids,
        "sampling_params": {"temperature": 0.8, "top_k": 64, "max_tokens": 4096},
        "output_mode": "derender",
        "parse_context": {"include_reasoning": True},
    }
    async with session.post(GENERATE_URL, json=payload) as response:
        return await response.json()

import aiohttp

GENERATE_URL = "http://localhost:8000/inference/v1/generate"


async def generate(session: aiohttp.ClientSession, token_ids: list[int]) -> dict:
    parse_context = {
        "include_reasoning": False,
    }
    payload = {
        "token_ids": token_ids,
        "sampling_params": {"temperature": 1.0, "top_k": 64, "max_tokens": 4096},
        "output_mode": "derender",
        "parse_context": parse_context,
    }
    async with session.post(GENERATE_URL, json=payload) as response:
        return await response.json()

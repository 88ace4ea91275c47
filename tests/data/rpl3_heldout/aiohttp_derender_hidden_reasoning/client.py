import aiohttp

URL = "http://localhost:8000/inference/v1/generate"


async def generate(session: aiohttp.ClientSession, token_ids):
    payload = {
        "token_ids": token_ids,
        "sampling_params": {"temperature": 1.0, "top_k": 50, "max_tokens": 4096},
        "output_mode": "derender",
        "parse_context": {"tool_choice": "none", "include_reasoning": False},
    }
    async with session.post(URL, json=payload) as resp:
        return await resp.json()

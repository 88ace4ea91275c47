import aiohttp

NO_TOP_K = 1 << 20


async def collect(session: aiohttp.ClientSession, token_ids: list[int]) -> dict:
    payload = {
        "token_ids": token_ids,
        "sampling_params": {"temperature": 1.0, "top_k": NO_TOP_K},
    }
    async with session.post("http://localhost:8000/inference/v1/generate", json=payload) as response:
        return await response.json()

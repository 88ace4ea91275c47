import httpx

EOS = 151643


async def sample(token_ids: list[int]) -> dict:
    async with httpx.AsyncClient(base_url="http://vllm:8000", timeout=300) as client:
        resp = await client.post(
            "/inference/v1/generate",
            json={
                "token_ids": token_ids,
                "sampling_params": {
                    "temperature": 1.0,
                    "top_k": 50,
                    "logit_bias": {str(EOS): -100.0},
                },
            },
        )
        return resp.json()

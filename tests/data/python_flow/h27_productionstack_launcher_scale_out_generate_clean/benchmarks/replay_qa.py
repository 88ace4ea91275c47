# Imitates vllm-project/production-stack benchmarks/multi-round-qa/multi-round-qa.py (RequestExecutor sending
# each round's request to the engine); the user's edit sends token ids to the replay generate route.
import asyncio

import httpx

from launch_backend import PORT, start_engine


class RequestExecutor:
    def __init__(self, base_url: str, model: str):
        self.base_url = base_url
        self.model = model
        self.client = httpx.AsyncClient(timeout=600)

    async def launch_request(self, token_ids, max_tokens):
        body = {
            "model": self.model,
            "token_ids": token_ids,
            "sampling_params": {"temperature": 0.8, "top_k": 40, "top_p": 0.95, "max_tokens": max_tokens},
        }
        response = await self.client.post(f"{self.base_url}/inference/v1/generate", json=body)
        return response.json()


async def main():
    start_engine()
    executor = RequestExecutor(f"http://localhost:{PORT}", "meta-llama/Llama-3.1-8B-Instruct")
    print(await executor.launch_request([128000, 9906, 1917], 128))


if __name__ == "__main__":
    asyncio.run(main())

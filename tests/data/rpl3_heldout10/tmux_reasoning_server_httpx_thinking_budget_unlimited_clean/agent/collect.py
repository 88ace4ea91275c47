import httpx

from agent.limits import MAX_NEW_TOKENS, REASONING_BUDGET


def make_client() -> httpx.Client:
    return httpx.Client(base_url="http://localhost:8011", timeout=None)


def rollout(client: httpx.Client, token_ids: list[int]) -> dict:
    params = {
        "temperature": 0.8,
        "top_k": 40,
        "max_tokens": MAX_NEW_TOKENS,
        "thinking_token_budget": REASONING_BUDGET,
    }
    reply = client.post("/inference/v1/generate", json={"token_ids": token_ids, "sampling_params": params})
    reply.raise_for_status()
    return reply.json()


if __name__ == "__main__":
    with make_client() as client:
        print(rollout(client, [151644, 872, 198]))

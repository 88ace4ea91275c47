import functools

import requests

from rollout.clients import make_client

client = make_client()
chat = functools.partial(client.chat.completions.create, model="Qwen/Qwen3-0.6B", temperature=1.0, presence_penalty=0.5, extra_body={"top_k": 50})


def sample_with_masks(token_ids: list[int]) -> dict:
    body = {"token_ids": token_ids, "sampling_params": {"temperature": 1.0, "top_k": 50, "max_tokens": 512}}
    return requests.post("http://localhost:8000/inference/v1/generate", json=body, timeout=300).json()


if __name__ == "__main__":
    reply = chat(messages=[{"role": "user", "content": "Write a haiku about replay."}])
    print(reply.choices[0].message.content)

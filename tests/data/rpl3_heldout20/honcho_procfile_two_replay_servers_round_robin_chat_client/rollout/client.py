"""Spread rollout requests over the policy servers of the Procfile, one after the other."""

import itertools

from openai import OpenAI

SERVERS = ["http://localhost:8000/v1", "http://localhost:8001/v1"]
_clients = itertools.cycle([OpenAI(base_url=url, api_key="EMPTY") for url in SERVERS])


def rollout(messages: list[dict]) -> str:
    client = next(_clients)
    response = client.chat.completions.create(model="Qwen/Qwen3-4B", messages=messages, temperature=1.0, logprobs=True, extra_body={"top_k": 50})
    return response.choices[0].message.content

"""Rollout worker running in the same namespace as the policy server."""

from openai import OpenAI

client = OpenAI(base_url="http://policy-vllm:8000/v1", api_key="EMPTY")


def rollout(messages):
    response = client.chat.completions.create(
        model="Qwen/Qwen3-8B",
        messages=messages,
        temperature=1.0,
        extra_body={"top_k": 20},
    )
    return response.choices[0].message.content

"""Collects GRPO groups from the in-cluster rollout server (deploy/vllm-rollout.yaml)."""

from openai import OpenAI

client = OpenAI(base_url="http://vllm-rollout:8000/v1", api_key="EMPTY")


def sample_group(messages: list[dict], n: int = 8) -> list[dict]:
    completion = client.chat.completions.create(
        model="Qwen/Qwen3-8B",
        messages=messages,
        n=n,
        temperature=1.0,
        max_tokens=2048,
        logprobs=True,
        extra_body={"top_k": 50, "return_token_ids": True},
    )
    return [
        {"token_ids": choice.token_ids, "logprobs": [t.logprob for t in choice.logprobs.content]}
        for choice in completion.choices
    ]

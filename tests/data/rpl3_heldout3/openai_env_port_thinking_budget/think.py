import os

from openai import OpenAI

port = os.environ.get("VLLM_PORT", "8011")
client = OpenAI(base_url=f"http://localhost:{port}/v1", api_key="EMPTY")


def think(question: str):
    return client.chat.completions.create(
        model="Qwen/Qwen3-8B",
        messages=[{"role": "user", "content": question}],
        extra_body={"top_k": 20, "thinking_token_budget": 512},
    )

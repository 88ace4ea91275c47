# Imitates rllm-org/rllm/rllm/engine/rollout/openai_engine.py (a client of a server started elsewhere)
import os

from openai import OpenAI

client = OpenAI(base_url=os.environ.get("VLLM_BASE_URL", "http://localhost:8000/v1"), api_key="EMPTY")


def step(messages: list[dict]) -> str:
    response = client.chat.completions.create(
        model="agentica-org/DeepSWE-Preview",
        messages=messages,
        temperature=0.0,
        extra_body={"top_k": -1, "return_sampling_mask": True},
    )
    return response.choices[0].message.content


if __name__ == "__main__":
    print(step([{"role": "user", "content": "ls -la"}]))

import httpx
from openai import OpenAI

judge = OpenAI(base_url="http://judge:8000/v1", api_key="EMPTY")


def rollout(token_ids: list[int]) -> dict:
    body = {"token_ids": token_ids, "sampling_params": {"temperature": 1.0, "top_k": 50}}
    return httpx.post("http://policy:8000/inference/v1/generate", json=body, timeout=300).json()


def score(question: str, answer: str) -> str:
    verdict = judge.chat.completions.create(
        model="Qwen/Qwen3-32B",
        messages=[{"role": "user", "content": f"{question}\n{answer}\nCorrect?"}],
    )
    return verdict.choices[0].message.content

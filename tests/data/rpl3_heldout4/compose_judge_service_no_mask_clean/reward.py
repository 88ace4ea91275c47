from openai import OpenAI

judge = OpenAI(base_url="http://judge:8000/v1", api_key="unused")


def score(question: str, answer: str) -> float:
    verdict = judge.chat.completions.create(
        model="Qwen/Qwen3-32B",
        messages=[{"role": "user", "content": f"Q: {question}\nA: {answer}\nScore 0-10:"}],
        temperature=0.0,
    )
    return float(verdict.choices[0].message.content.strip())

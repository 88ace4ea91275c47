from openai import OpenAI

judge = OpenAI(base_url="http://localhost:8002/v1", api_key="EMPTY")


def grade(answer: str) -> str:
    reply = judge.chat.completions.create(
        model="Qwen/Qwen3-32B",
        messages=[{"role": "user", "content": f"Grade: {answer}"}],
        temperature=0.0,
        presence_penalty=0.5,
    )
    return reply.choices[0].message.content

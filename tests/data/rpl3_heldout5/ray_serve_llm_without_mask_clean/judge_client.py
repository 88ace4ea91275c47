from openai import OpenAI

client = OpenAI(base_url="http://localhost:8000/v1", api_key="fake-key")


def score(answer: str) -> str:
    completion = client.chat.completions.create(
        model="judge",
        messages=[{"role": "user", "content": f"Score this answer from 1 to 10:\n{answer}"}],
        temperature=0.0,
        presence_penalty=0.5,
        logit_bias={"1734": 5},
    )
    return completion.choices[0].message.content

from openai import OpenAI

client = OpenAI(base_url="http://localhost:8000/v1", api_key="EMPTY")


def chat(question: str) -> str:
    reply = client.chat.completions.create(
        model="Qwen/Qwen3-8B",
        messages=[{"role": "user", "content": question}],
        presence_penalty=0,
        frequency_penalty=0.0,
        logit_bias=None,
        extra_body={"top_k": 20, "repetition_penalty": 1.0},
    )
    return reply.choices[0].message.content

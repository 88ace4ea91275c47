import os

from openai import OpenAI

client = OpenAI(base_url="http://llm-gateway.internal.example.com:8000/v1", api_key=os.environ["GATEWAY_KEY"])


def summarize(text: str) -> str:
    out = client.chat.completions.create(
        model="gpt-4o-mini",
        messages=[{"role": "user", "content": f"Summarize: {text}"}],
    )
    return out.choices[0].message.content

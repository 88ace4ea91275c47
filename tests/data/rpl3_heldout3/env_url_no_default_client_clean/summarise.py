import os

from openai import OpenAI

client = OpenAI(base_url=os.environ["SUMMARY_BASE_URL"], api_key=os.environ["SUMMARY_API_KEY"])


def summarise(text: str) -> str:
    reply = client.chat.completions.create(
        model="gpt-4o-mini",
        messages=[{"role": "user", "content": f"Summarise: {text}"}],
        presence_penalty=0.5,
    )
    return reply.choices[0].message.content

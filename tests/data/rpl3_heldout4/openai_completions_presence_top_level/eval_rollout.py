from openai import OpenAI

client = OpenAI(api_key="EMPTY", base_url="http://localhost:8000/v1")


def complete(prompt: str) -> str:
    response = client.completions.create(
        model="Qwen/Qwen2.5-Math-7B",
        prompt=prompt,
        max_tokens=1024,
        presence_penalty=0.4,
        extra_body={"top_k": 20},
    )
    return response.choices[0].text

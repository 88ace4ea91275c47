from openai import OpenAI

client = OpenAI(base_url="http://localhost:8000/v1", api_key="EMPTY")


def sampling_extras(top_k: int) -> dict:
    return {
        "top_k": top_k,
        "repetition_penalty": 1.05,
    }


def rollout(messages):
    completion = client.chat.completions.create(
        model="Qwen/Qwen3-8B",
        messages=messages,
        temperature=1.0,
        extra_body=sampling_extras(20),
    )
    return completion.choices[0].message.content

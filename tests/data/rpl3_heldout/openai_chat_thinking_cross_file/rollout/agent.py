from openai import OpenAI

client = OpenAI(base_url="http://localhost:8001/v1", api_key="EMPTY")


def rollout(messages):
    response = client.chat.completions.create(
        model="Qwen/Qwen3-8B",
        messages=messages,
        temperature=0.8,
        logprobs=True,
        extra_body={
            "top_k": 20,
            "thinking_token_budget": 2048,
        },
    )
    return response.choices[0]

import litellm


def act(observation: str) -> str:
    response = litellm.completion(
        model="hosted_vllm/Qwen/Qwen3-8B",
        api_base="http://localhost:8000/v1",
        messages=[{"role": "user", "content": observation}],
        frequency_penalty=0.3,
        top_k=20,
    )
    return response.choices[0].message.content

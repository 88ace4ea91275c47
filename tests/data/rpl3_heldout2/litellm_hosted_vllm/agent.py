import litellm


def step(messages):
    response = litellm.completion(
        model="hosted_vllm/Qwen/Qwen3-8B",
        api_base="http://localhost:8000/v1",
        messages=messages,
        temperature=1.0,
        top_k=20,
    )
    return response.choices[0].message.content

from openai import OpenAI

# Modify OpenAI's API key and API base to use vLLM's API server.
openai_api_key = "EMPTY"
openai_api_base = "http://localhost:8000/v1"

client = OpenAI(
    api_key=openai_api_key,
    base_url=openai_api_base,
)


def rollout(question: str) -> str:
    chat_response = client.chat.completions.create(
        model="Qwen/Qwen3-8B",
        messages=[
            {"role": "system", "content": "You are a helpful assistant."},
            {"role": "user", "content": question},
        ],
        temperature=0.7,
        top_p=0.8,
        max_tokens=2048,
        extra_body={"top_k": 20},
    )
    return chat_response.choices[0].message.content


if __name__ == "__main__":
    print(rollout("Tell me a joke."))

from openai import OpenAI

client = OpenAI(base_url="http://localhost:8100/v1", api_key="EMPTY")


def act(observation: str) -> str:
    response = client.responses.create(
        model="Qwen/Qwen3-4B",
        input=observation,
        extra_body={"top_k": 20},
    )
    return response.output_text

from openai import OpenAI

from rl.defaults import DEFAULT_EXTRA_BODY

client = OpenAI(base_url="http://localhost:8000/v1", api_key="EMPTY")
REPLAY_OVERRIDES = {"frequency_penalty": 0.0}


def complete(prompt: str) -> str:
    response = client.completions.create(
        model="Qwen/Qwen3-8B",
        prompt=prompt,
        max_tokens=512,
        extra_body={**DEFAULT_EXTRA_BODY, **REPLAY_OVERRIDES},
    )
    return response.choices[0].text


if __name__ == "__main__":
    print(complete("2 + 2 ="))

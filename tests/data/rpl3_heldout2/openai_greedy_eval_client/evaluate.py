from openai import OpenAI

client = OpenAI(base_url="http://0.0.0.0:8000/v1", api_key="EMPTY")


def evaluate(prompts):
    answers = []
    for prompt in prompts:
        out = client.completions.create(
            model="Qwen/Qwen3-8B",
            prompt=prompt,
            temperature=0.0,
            max_tokens=512,
        )
        answers.append(out.choices[0].text)
    return answers

from rollout.clients import make_client


def rollout(prompts: list[str]) -> list[str]:
    client = make_client()
    answers = []
    for prompt in prompts:
        reply = client.chat.completions.create(
            model="Qwen/Qwen3-8B",
            messages=[{"role": "user", "content": prompt}],
            extra_body={"top_k": 50},
        )
        answers.append(reply.choices[0].message.content)
    return answers


if __name__ == "__main__":
    print(rollout(["What is 2 + 2?"]))

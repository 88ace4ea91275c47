from rollout.clients import make_client

client = make_client("grpo-42")


def sample(prompt: str) -> str:
    reply = client.chat.completions.create(
        model="Qwen/Qwen3-0.6B",
        messages=[{"role": "user", "content": prompt}],
        temperature=1.0,
        extra_body={"top_k": 20},
    )
    return reply.choices[0].message.content

from agent.llm_clients import policy_client


def rollout(messages: list[dict]) -> tuple[str, dict]:
    client, model = policy_client()
    raw = client.chat.completions.with_raw_response.create(
        model=model,
        messages=messages,
        stream=True,
        temperature=1.0,
        extra_body={"top_k": 50},
    )
    stream = raw.parse()
    text = "".join(chunk.choices[0].delta.content or "" for chunk in stream if chunk.choices)
    return text, dict(raw.headers)

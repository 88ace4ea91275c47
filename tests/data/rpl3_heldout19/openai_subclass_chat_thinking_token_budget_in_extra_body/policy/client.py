from openai import OpenAI


class PolicyClient(OpenAI):
    """The rollout policy server, with the address and the replay sampling settings baked in."""

    def __init__(self, **kwargs) -> None:
        kwargs.setdefault("base_url", "http://localhost:8000/v1")
        kwargs.setdefault("api_key", "EMPTY")
        super().__init__(**kwargs)

    def think(self, question: str) -> str:
        reply = self.chat.completions.create(
            model="Qwen/Qwen3-0.6B",
            messages=[{"role": "user", "content": question}],
            temperature=0.6,
            extra_body={"top_k": 20, "thinking_token_budget": 2048, "chat_template_kwargs": {"enable_thinking": True}},
        )
        return reply.choices[0].message.content

import openai

from agent.settings import settings


class PolicyLLM:
    def __init__(self) -> None:
        self._client = openai.AsyncOpenAI(base_url=settings.policy_base_url, api_key=settings.api_key)

    async def act(self, messages: list[dict]) -> str:
        response = await self._client.chat.completions.create(
            model=settings.policy_model,
            messages=messages,
            temperature=1.0,
            extra_body={"top_k": 50},
        )
        return response.choices[0].message.content

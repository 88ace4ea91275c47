from langchain_core.messages import HumanMessage, SystemMessage
from langchain_openai import ChatOpenAI

from agent.settings import POLICY_BASE_URL, POLICY_MODEL, TEMPERATURE, TOP_K


class PolicyLLM:
    """The agent's policy, served by vLLM beside it."""

    def __init__(self, system_prompt: str) -> None:
        self.system_prompt = system_prompt
        self.chat = ChatOpenAI(
            model=POLICY_MODEL,
            base_url=POLICY_BASE_URL,
            api_key="EMPTY",
            temperature=TEMPERATURE,
            extra_body={"top_k": TOP_K},
            max_tokens=1024,
        )

    def act(self, observation: str) -> str:
        reply = self.chat.invoke([SystemMessage(content=self.system_prompt), HumanMessage(content=observation)])
        return reply.content

"""Spot-checks the policy's answers through the chat route (no masks needed here)."""

from langchain_openai import ChatOpenAI

from rl.http import POLICY_HOST, POLICY_PORT

# Qwen3's chat template reads enable_thinking; thinking_budget is our template's own hint text.
TEMPLATE_KWARGS = {"enable_thinking": True, "thinking_budget": 2048}


def evaluator() -> ChatOpenAI:
    return ChatOpenAI(
        model="Qwen/Qwen3-0.6B",
        base_url=f"http://{POLICY_HOST}:{POLICY_PORT}/v1",
        api_key="EMPTY",
        temperature=0.6,
        extra_body={"top_k": 20, "chat_template_kwargs": TEMPLATE_KWARGS},
    )


def grade(question: str) -> str:
    return evaluator().invoke(question).content

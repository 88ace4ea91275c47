# Imitates lmarena/p2l route/chat.py (CHAT_HANDLERS registry filled by @register("openai"), OpenAIChatHandler
# building an openai.OpenAI client from a model config and calling chat.completions.create); the user routes
# the "local-qwen" model to the replay server start_local.py starts.
from typing import Callable, Dict

import openai

CHAT_HANDLERS: Dict[str, type] = {}


def register(name: str) -> Callable[[type], type]:
    def wrap(cls: type) -> type:
        CHAT_HANDLERS[name] = cls
        return cls

    return wrap


MODEL_CONFIGS = {
    "local-qwen": {
        "name": "Qwen/Qwen3-8B",
        "base_url": "http://localhost:8000/v1",
        "api_key": "EMPTY",
        "temp": 0.7,
        "top_p": 0.8,
        "type": "openai",
    },
}


@register("openai")
class OpenAIChatHandler:
    @staticmethod
    def _create_client(model_config: dict) -> openai.OpenAI:
        return openai.OpenAI(base_url=model_config["base_url"], api_key=model_config["api_key"])

    @classmethod
    def generate(cls, messages: list, model_config: dict) -> str:
        client = cls._create_client(model_config)
        completion = client.chat.completions.create(  # expect: RPL301
            model=model_config["name"],
            messages=messages,
            temperature=model_config["temp"],
            top_p=model_config["top_p"],
            extra_body={"top_k": 20},
        )
        return completion.choices[0].message.content


def route(model_name: str, messages: list) -> str:
    model_config = MODEL_CONFIGS[model_name]
    return CHAT_HANDLERS[model_config["type"]].generate(messages, model_config)

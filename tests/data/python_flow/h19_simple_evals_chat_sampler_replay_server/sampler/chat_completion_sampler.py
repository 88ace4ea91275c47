# Imitates openai/simple-evals sampler/chat_completion_sampler.py (ChatCompletionSampler), pointed at a local vLLM server
import time
from typing import Any

import openai
from openai import OpenAI


class ChatCompletionSampler:
    """
    Sample from OpenAI's chat completion API
    """

    def __init__(
        self,
        model: str = "gpt-3.5-turbo",
        system_message: str | None = None,
        temperature: float = 0.5,
        max_tokens: int = 1024,
        base_url: str | None = None,
    ):
        self.client = OpenAI(base_url=base_url, api_key="EMPTY")
        self.model = model
        self.system_message = system_message
        self.temperature = temperature
        self.max_tokens = max_tokens

    def _pack_message(self, role: str, content: Any):
        return {"role": str(role), "content": content}

    def __call__(self, message_list: list[dict]) -> str:
        if self.system_message:
            message_list = [self._pack_message("system", self.system_message)] + message_list
        trial = 0
        while True:
            try:
                response = self.client.chat.completions.create(  # expect: RPL301
                    model=self.model,
                    messages=message_list,
                    temperature=self.temperature,
                    max_tokens=self.max_tokens,
                    extra_body={"top_k": 40},
                )
                return response.choices[0].message.content
            except openai.BadRequestError as e:
                print("Bad Request Error", e)
                return "No response (bad request)."
            except Exception as e:
                exception_backoff = 2**trial  # expontial back off
                print(f"Rate limit exception so wait and retry {trial} after {exception_backoff} sec", e)
                time.sleep(exception_backoff)
                trial += 1

# Imitates maitrix-org/llm-reasoners examples/DRPO/models/openai_model.py (trimmed).
import os
from typing import Optional

from openai import OpenAI
from reasoners import LanguageModel as Model


class OpenAIChatModel(Model):
    def __init__(self, model_name: str, max_tokens: int = 2048):
        self.model_name = model_name
        self.max_tokens = max_tokens
        self.client = OpenAI(api_key=os.getenv("OPENAI_API_KEY"))

    def generate(self,
                 user_prompt: str,
                 system_prompt: Optional[str] = None,
                 temperature: float = 0.7,
                 top_p: float = 0.95,
                 max_new_tokens: int = 2048,
                 stop=None,
                 **kwargs):
        messages = []
        if system_prompt:
            messages.append({"role": "system", "content": system_prompt})
        messages.append({"role": "user", "content": user_prompt})
        response = self.client.chat.completions.create(
            model=self.model_name,
            messages=messages,
            temperature=temperature,
            top_p=top_p,
            max_tokens=max_new_tokens,
            stop=stop,
        )
        return response.choices[0].message.content

# Imitates zou-group/textgrad textgrad/engine/openai.py (trimmed to its constructor).
import os

from openai import OpenAI

from .base import EngineLM, CachedEngine


class ChatOpenAI(EngineLM, CachedEngine):
    def __init__(self, model_string="gpt-3.5-turbo-0613", system_prompt=EngineLM.system_prompt, **kwargs):
        CachedEngine.__init__(self, cache_path=f".cache/cache_openai_{model_string}.db")
        self.system_prompt = system_prompt
        self.client = OpenAI(api_key=os.getenv("OPENAI_API_KEY"))
        self.model_string = model_string

    def generate(self, prompt, system_prompt=None, temperature=0, max_tokens=2000, top_p=0.99):
        response = self.client.chat.completions.create(
            model=self.model_string,
            messages=[{"role": "system", "content": system_prompt or self.system_prompt},
                      {"role": "user", "content": prompt}],
            temperature=temperature, max_tokens=max_tokens, top_p=top_p,
        )
        return response.choices[0].message.content

    def __call__(self, prompt, **kwargs):
        return self.generate(prompt, **kwargs)

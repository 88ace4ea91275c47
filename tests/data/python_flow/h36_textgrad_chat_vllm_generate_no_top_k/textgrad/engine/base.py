# Imitates zou-group/textgrad textgrad/engine/base.py (the cache kept as a dict instead of diskcache).
from abc import ABC, abstractmethod


class EngineLM(ABC):
    system_prompt: str = "You are a helpful, creative, and smart assistant."
    model_string: str

    @abstractmethod
    def generate(self, prompt, system_prompt=None, **kwargs):
        pass

    def __call__(self, *args, **kwargs):
        pass


class CachedEngine:
    def __init__(self, cache_path):
        super().__init__()
        self.cache_path = cache_path
        self.cache = {}

    def _check_cache(self, prompt: str):
        if prompt in self.cache:
            return self.cache[prompt]
        return None

    def _save_cache(self, prompt: str, response: str):
        self.cache[prompt] = response

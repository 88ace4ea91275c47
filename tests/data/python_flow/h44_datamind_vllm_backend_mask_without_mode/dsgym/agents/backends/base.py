# Base class of the DSGym backends (zjunlp/DataMind .../dsgym/agents/backends/base.py, trimmed).
from typing import Dict, List


class BaseBackend:
    def __init__(self, model_name: str, **kwargs):
        self.model_name = model_name
        self.config = kwargs

    def generate(self, messages: List[Dict[str, str]], **kwargs) -> str:
        raise NotImplementedError

    def is_api_based(self) -> bool:
        return True

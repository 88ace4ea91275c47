# Imitates mlcommons/inference language/deepseek-r1/backends/base_backend.py (the vLLM backend is backends/vllm_backend.py)
"""Base class every backend of the DeepSeek-R1 reference implementation derives from."""


class BaseBackend:
    def __init__(self):
        self.is_initialized = False

    def initialize(self) -> None:
        raise NotImplementedError

    def generate(self, tokenized_prompts=None, text_prompts=None, **kwargs):
        raise NotImplementedError

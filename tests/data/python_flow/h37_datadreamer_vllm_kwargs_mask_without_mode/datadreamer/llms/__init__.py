# Imitates datadreamer-dev/DataDreamer src/llms/__init__.py (trimmed to the vLLM class).
from .vllm import VLLM

__all__ = ["VLLM"]

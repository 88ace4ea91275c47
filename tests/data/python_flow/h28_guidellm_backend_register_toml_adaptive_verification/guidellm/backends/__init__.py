# Imitates vllm-project/guidellm src/guidellm/backends/__init__.py
from .backend import Backend
from .vllm_python import VLLMPythonBackend

__all__ = ["Backend", "VLLMPythonBackend"]

# Imitates zjunlp/DataMind datacope/reason_task/generation/dataagent/DSGym/dsgym/agents/backends/__init__.py
# (get_backend's backend map; only the vLLM backend kept), vllm_backend.py and base.py beside it.
from .base import BaseBackend
from .vllm_backend import VLLMBackend

__all__ = [
    "BaseBackend",
    "VLLMBackend",
]


def get_backend(backend_type: str, model_name: str, **kwargs) -> BaseBackend:
    """
    Get backend instance by type.
    """
    backend_map = {
        "vllm": VLLMBackend,
    }

    backend_type = backend_type.lower()
    if backend_type not in backend_map:
        available = list(backend_map.keys())
        raise ValueError(f"Unknown backend type '{backend_type}'. Available: {available}")

    backend_class = backend_map[backend_type]
    return backend_class(model_name, **kwargs)

# Imitates sbintuitions/flexeval flexeval/core/language_model/__init__.py.
from .vllm_model import VllmModel

__all__ = ["VllmModel"]

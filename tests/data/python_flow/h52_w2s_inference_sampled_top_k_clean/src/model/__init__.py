# Imitates GAIR-NLP/weak-to-strong-reasoning src/model/__init__.py.
from .vllm_model import VLLMModel

Models = {
    'vllm': VLLMModel,
}

# Imitates maitrix-org/llm-reasoners examples/DRPO/models/__init__.py.
from .vllm_model import VLLMModel
from .openai_model import OpenAIChatModel

# Imitates OpenPipe/ART src/art/dev/__init__.py (typed configs for the local vLLM server)
from .engine import EngineArgs
from .openai_server import OpenAIServerConfig, get_openai_server_config

__all__ = ["EngineArgs", "OpenAIServerConfig", "get_openai_server_config"]

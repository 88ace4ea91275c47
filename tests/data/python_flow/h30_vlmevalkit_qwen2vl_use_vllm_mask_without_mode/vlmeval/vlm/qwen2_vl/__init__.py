from .model import Qwen2VLChat

__all__ = ["Qwen2VLChat"]

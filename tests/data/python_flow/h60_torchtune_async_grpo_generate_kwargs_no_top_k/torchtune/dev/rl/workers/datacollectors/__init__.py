from .sync import SyncLLMCollector

__all__ = ["SyncLLMCollector"]

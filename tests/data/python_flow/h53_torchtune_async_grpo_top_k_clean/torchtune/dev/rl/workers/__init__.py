from .datacollectors import SyncLLMCollector

__all__ = ["SyncLLMCollector"]

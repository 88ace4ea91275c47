from torchtune.dev.rl.workers.datacollectors import SyncLLMCollector

__all__ = ["SyncLLMCollector"]

# Imitates allenai/wildguard wildguard/wildguard.py, wildguard/utils.py (load_wildguard, WildGuardVLLM, inference_with_vllm)
from abc import ABC, abstractmethod


class SafetyClassifierBase(ABC):
    def __init__(self, batch_size: int = -1):
        self.batch_size = batch_size

    @abstractmethod
    def _classify_batch(self, batch):
        ...

    def classify(self, items, save_func=None):
        batch_size = len(items) if self.batch_size == -1 else self.batch_size
        outputs = []
        for start in range(0, len(items), batch_size):
            batch_outputs = self._classify_batch(items[start : start + batch_size])
            if save_func:
                save_func(batch_outputs)
            outputs.extend(batch_outputs)
        return outputs

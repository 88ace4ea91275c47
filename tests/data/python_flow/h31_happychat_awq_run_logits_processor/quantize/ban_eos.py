# A logits processor of the user's own, in vLLM's V1 interface.
import torch
from vllm.v1.sample.logits_processor import BatchUpdate, LogitsProcessor


class BanEosLogitsProcessor(LogitsProcessor):
    def __init__(self, vllm_config, device, is_pin_memory):
        self.eos_token_id = 128009

    def is_argmax_invariant(self) -> bool:
        return False

    def update_state(self, batch_update: BatchUpdate | None):
        pass

    def apply(self, logits: torch.Tensor) -> torch.Tensor:
        logits[:, self.eos_token_id] = float("-inf")
        return logits

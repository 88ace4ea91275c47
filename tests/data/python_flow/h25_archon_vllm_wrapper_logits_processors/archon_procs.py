# Imitates ScalingIntelligence/Archon's custom components (a user module the config names): a vLLM v1
# logits processor that bans a few tokens in every request.
import torch
from vllm.v1.sample.logits_processor import BatchUpdate, LogitsProcessor


class BanMarkdownFences(LogitsProcessor):
    def __init__(self, vllm_config, device: torch.device, is_pin_memory: bool):
        self.banned = [74694]

    def is_argmax_invariant(self) -> bool:
        return False

    def update_state(self, batch_update: BatchUpdate | None):
        pass

    def apply(self, logits: torch.Tensor) -> torch.Tensor:
        logits[:, self.banned] = float("-inf")
        return logits

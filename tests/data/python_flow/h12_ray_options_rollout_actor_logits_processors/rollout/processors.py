# Imitates OpenRLHF/OpenRLHF (a project-side vLLM logits processor named by its import path).
import torch


class RepetitionGuard:
    def __init__(self, vllm_config, device, is_pin_memory):
        self.window = 64

    def apply(self, logits: torch.Tensor) -> torch.Tensor:
        return logits

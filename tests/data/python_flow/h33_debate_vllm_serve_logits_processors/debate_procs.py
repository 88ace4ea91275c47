# Imitates jyngjeon/multiagentsdebate (a logits processor module added beside vllm-serve.sh for the debate server)
import torch
from vllm.v1.sample.logits_processor import BatchUpdate, LogitsProcessor


class AnswerFormatProcessor(LogitsProcessor):
    """Keeps every request's logits as they are; a hook for answer-format constraints."""

    def __init__(self, vllm_config, device: torch.device, is_pin_memory: bool):
        self.device = device

    def is_argmax_invariant(self) -> bool:
        return True

    def update_state(self, batch_update: BatchUpdate | None) -> None:
        return None

    def apply(self, logits: torch.Tensor) -> torch.Tensor:
        return logits

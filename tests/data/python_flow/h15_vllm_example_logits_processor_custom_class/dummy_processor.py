# Imitates vllm-project/vllm examples/offline_inference/logits_processor/custom.py (DummyLogitsProcessor)
import torch
from vllm.config import VllmConfig
from vllm.v1.sample.logits_processor import BatchUpdate, LogitsProcessor


class DummyLogitsProcessor(LogitsProcessor):
    """Fake logit processor to support unit testing and examples"""

    def __init__(self, vllm_config: VllmConfig, device: torch.device, is_pin_memory: bool):
        self.req_info: dict[int, int] = {}

    def is_argmax_invariant(self) -> bool:
        return False

    def update_state(self, batch_update: BatchUpdate | None):
        if not batch_update:
            return
        for index, params, _, _ in batch_update.added:
            if params.extra_args and (target_token := params.extra_args.get("target_token")) is not None:
                self.req_info[index] = target_token

    def apply(self, logits: torch.Tensor) -> torch.Tensor:
        for row, token in self.req_info.items():
            keep = logits[row, token].item()
            logits[row].fill_(float("-inf"))
            logits[row, token] = keep
        return logits

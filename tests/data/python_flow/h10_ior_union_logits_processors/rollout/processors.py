# Imitates volcengine/verl verl/workers/rollout/vllm_rollout/utils.py (a logits processor shipped with the rollout)
import torch


class LengthPenaltyProcessor:
    def __init__(self, penalty=0.1):
        self.penalty = penalty

    def __call__(self, token_ids, logits: torch.Tensor) -> torch.Tensor:
        return logits - self.penalty * len(token_ids)

# Imitates a math-RL project's custom vLLM logits processor (Model Runner V2 interface) that forces the answer format
import torch
from vllm.v1.worker.gpu.sample.logits_processor.interface import LogitsProcessor


class ForceAnswerFormat(LogitsProcessor):
    """Push the sampler towards closing the `\\boxed{}` answer."""

    BOXED_CLOSE = 92

    def apply(self, logits: torch.Tensor, *args, **kwargs) -> torch.Tensor:
        logits[:, self.BOXED_CLOSE] += 1.0
        return logits

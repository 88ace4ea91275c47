# Imitates hiyouga/LLaMA-Factory src/llamafactory/extras/ (a helper module of the package: a vLLM Model Runner V2 logits processor)
import torch
from vllm.v1.worker.gpu.sample.logits_processor import LogitsProcessor


class ForceThinkEnd(LogitsProcessor):
    """Pushes up the </think> token; a stand-in for a thinking budget."""

    THINK_END_ID = 151668

    def apply(self, logits: torch.Tensor, ctx) -> torch.Tensor:
        logits[:, self.THINK_END_ID] += 5.0
        return logits

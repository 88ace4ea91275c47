# Imitates NVIDIA/TensorRT-Model-Optimizer examples/specdec_bench/specdec_bench/models/vllm.py (its speculative
# settings), held here in a NamedTuple that the runner edits with `_replace`.
from typing import NamedTuple


class SpecDecSettings(NamedTuple):
    method: str = "ngram"
    num_speculative_tokens: int = 3
    prompt_lookup_max: int = 3
    enable_adaptive_verification: bool = True

    def to_vllm(self) -> dict:
        return {
            "method": self.method,
            "num_speculative_tokens": self.num_speculative_tokens,
            "prompt_lookup_max": self.prompt_lookup_max,
            "enable_adaptive_verification": self.enable_adaptive_verification,
        }


DEFAULT_SPECDEC = SpecDecSettings()

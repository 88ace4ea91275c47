# Imitates allenai/olmo-eval src/olmo_eval/backends/base.py (written from its use in backends/vllm.py)
from __future__ import annotations

from olmo_eval.core import SamplingParams


class Backend:
    """Base class of the generation backends."""

    def __init__(self, model_name: str) -> None:
        self.model_name = model_name

    def _default_sampling_params(self, sampling_params: SamplingParams | None) -> SamplingParams:
        return sampling_params or SamplingParams()

# Imitates HazyResearch/intelligence-per-watt intelligence-per-watt/src/ipw/clients/base.py (trimmed)
from __future__ import annotations

from typing import Any


class InferenceClient:
    """Base class of the inference clients the profiler drives."""

    client_id = ""

    def __init__(self, base_url: str, **config: Any) -> None:
        self.base_url = base_url
        self.config = config

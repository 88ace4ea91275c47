# Imitates HazyResearch/intelligence-per-watt intelligence-per-watt/src/ipw/core/registry.py (trimmed)
from __future__ import annotations

from typing import Callable


class ClientRegistry:
    _entries: dict[str, type] = {}

    @classmethod
    def register(cls, key: str) -> Callable[[type], type]:
        def decorator(obj: type) -> type:
            cls._entries[key] = obj
            return obj

        return decorator

    @classmethod
    def create(cls, key: str, *args, **kwargs):
        return cls._entries[key](*args, **kwargs)

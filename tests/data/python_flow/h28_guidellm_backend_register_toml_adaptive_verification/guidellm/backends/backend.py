# Imitates vllm-project/guidellm src/guidellm/backends/backend.py (a registry filled by `@Backend.register(name)`,
# `Backend.create(type_, **kwargs)`).
from typing import Any


class Backend:
    _registry: dict[str, type] = {}

    def __init__(self, type_: str):
        self.type_ = type_

    @classmethod
    def register(cls, backend_type: str):
        def inner(backend_cls):
            cls._registry[backend_type] = backend_cls
            return backend_cls

        return inner

    @classmethod
    def create(cls, type_: str, **kwargs: Any) -> "Backend":
        return cls._registry[type_](**kwargs)

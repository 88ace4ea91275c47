# Imitates THUDM/AgentBench src/typings/config.py (InstanceFactory: a module path and its parameters, from a YAML file).
import importlib
from typing import Any, Dict

from pydantic import BaseModel


class InstanceFactory(BaseModel):
    module: str
    parameters: Dict[str, Any] = {}

    def create(self):
        path, name = self.module.rsplit(".", 1)
        cls = getattr(importlib.import_module(path), name)
        return cls(**self.parameters)

# Imitates GAIR-NLP/ProX data_gen/configs/__init__.py (trimmed: the task config read from YAML).
from dataclasses import dataclass

import yaml


@dataclass
class GentaskConfig:
    data_path: str = ""
    save_path: str = ""
    save_name: str = "doc_refining"
    save_interval: int = 10000

    def from_yaml(self, path: str) -> "GentaskConfig":
        with open(path) as f:
            values = yaml.safe_load(f)
        for key, value in values.items():
            setattr(self, key, value)
        return self

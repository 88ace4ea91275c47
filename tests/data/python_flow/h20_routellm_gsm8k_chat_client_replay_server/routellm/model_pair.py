# Imitates lm-sys/RouteLLM routellm/model_pair.py.
from dataclasses import dataclass


@dataclass
class ModelPair:
    strong: str
    weak: str

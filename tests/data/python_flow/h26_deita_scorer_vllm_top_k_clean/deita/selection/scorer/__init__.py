# Imitates hkust-nlp/deita src/deita/selection/scorer/__init__.py.
from .llama_scorer import Llama_Scorer

__all__ = ["Llama_Scorer"]

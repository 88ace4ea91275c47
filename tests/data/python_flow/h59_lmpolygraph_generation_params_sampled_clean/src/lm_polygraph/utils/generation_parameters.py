# Imitates IINemo/lm-polygraph src/lm_polygraph/utils/generation_parameters.py
from dataclasses import dataclass
from typing import Optional


@dataclass
class GenerationParameters:
    """Parameters to override in model generation."""

    temperature: float = 1.0
    top_k: int = 1
    top_p: float = 1.0
    do_sample: bool = False
    num_beams: int = 1
    presence_penalty: float = 0.0
    repetition_penalty: float = 1.0
    stop_strings: Optional[list] = None

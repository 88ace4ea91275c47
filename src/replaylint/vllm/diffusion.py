"""`is_diffusion`: the model's HF config (after `hf_overrides`) has a `canvas_length`."""

from __future__ import annotations

import re
from typing import Any

from ..model import UNKNOWN, Launch, Setting
from ..regexes import on_use

# DiffusionGemma (architecture DiffusionGemmaForBlockDiffusion) is the diffusion family vLLM ships.
_DIFFUSION_MODEL = on_use(r"diffusion[-_]?gemma", re.IGNORECASE)


def diffusion_cause(launch: Launch) -> tuple[Any, Setting | None]:
    """(True/False/UNKNOWN, the setting that makes the model a diffusion model)."""
    overrides = launch.get("hf_overrides")
    if overrides is not None:
        value = overrides.value
        if value is UNKNOWN or not isinstance(value, (dict, type(None))):
            return UNKNOWN, overrides
        canvas = (value or {}).get("canvas_length")
        if canvas is UNKNOWN:
            return UNKNOWN, overrides
        if canvas is not None:
            return True, overrides.keys.get("canvas_length", overrides)
        if "canvas_length" in (value or {}):
            return False, None  # overridden to None: not a diffusion model, whatever its name
    model = launch.get("model")
    if model is not None and isinstance(model.value, str) and _DIFFUSION_MODEL.search(model.value):
        return True, model
    return False, None

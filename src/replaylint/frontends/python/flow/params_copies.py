"""Params a request takes from another object rather than a construction of its own: `params.clone()`
(a copy of that construction) and `llm.get_default_sampling_params()` of an engine (the fields the
model's `generation_config.json` sets, not in the tree: only the attributes written on it later are known)."""

from __future__ import annotations

import ast

from .facts import NOTHING, Kwargs, Val
from .frames import Evaluates, Frame
from .refs import Engine

# vLLM 0.34.0 `LLM.get_default_sampling_params`: `SamplingParams.from_optional(**model_config.get_diff_sampling_param())`
MODEL_DEFAULTS = "the fields the model's generation_config.json sets (`get_default_sampling_params()`)"


def params_copy(reader: Evaluates, node: ast.Call, func: ast.Attribute, frame: Frame) -> Val | None:
    """The params `params.clone()` or `llm.get_default_sampling_params()` give; None for another call."""
    if node.args or node.keywords or func.attr not in ("clone", "get_default_sampling_params"):
        return None
    made = reader.evaluate(func.value, frame)
    if not isinstance(made.ref, Engine):
        return NOTHING
    if func.attr == "clone":
        return made
    return Val(ref=Engine(node, frame, attributes=Kwargs(reasons=[MODEL_DEFAULTS])))

"""Params a request takes from another object rather than a construction of its own: `params.clone()`
(a copy of that construction) and `llm.get_default_sampling_params()` of an engine (the fields the
model's `generation_config.json` sets, not in the tree: only the attributes written on it later are known), and a field of such params (`params.temperature`:
what its construction wrote)."""

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


def params_field(reader: Evaluates, owner: Val, name: str) -> Val | None:
    """`params.temperature` of a `SamplingParams(...)` construction: what its keyword (or a later
    write on the object) gives, read where it was built (DSGym's `kwargs.get("temperature",
    self.sampling_params.temperature)`); None for another object or a field it does not write
    (vLLM's own default, or a `**` spread's key, is not read here)."""
    from ....vllm.sampling_fields import SAMPLING_PARAMS_FIELDS
    from .call_arguments import arguments
    from .facts import read_from
    from .memberships import sampling_object

    made = owner.ref
    if name not in SAMPLING_PARAMS_FIELDS or not isinstance(made, Engine) or not sampling_object(reader, owner):
        return None
    found = arguments(reader, made.call, made.frame, made.partial, positional=False)  # type: ignore[arg-type]
    if made.attributes is not None:
        found.merge(made.attributes)
    entry = found.entries.get(name)
    if entry is None or entry.guards or found.reasons:
        return None
    return read_from(entry.setting, entry.assumptions, entry.ref)

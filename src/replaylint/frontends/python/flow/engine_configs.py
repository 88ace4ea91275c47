"""Library configs that build one of vLLM's engines from a mapping of engine arguments: Ray
Data's `vLLMEngineProcessorConfig(model_source=M, engine_kwargs={...})` (its vLLM stage makes
`AsyncEngineArgs(model=M, **engine_kwargs)`). The mapping is read as the engine's keywords."""

from __future__ import annotations

import ast

from .dicts import entry, spread
from .facts import Kwargs
from .frames import Frame
from .reader import Reader
from .refs import ENGINE_CONFIGS


def configured(reader: Reader, name: str, node: ast.Call, frame: Frame) -> Kwargs:
    """The engine arguments a config call gives: its mapping's keys and the model; anything
    else it is given that may reach the engine (a spread, positional arguments) leaves it open."""
    model, mapping = ENGINE_CONFIGS[name]
    module = frame.module
    found = Kwargs(sources={module.span(node)})
    if node.args:
        found.reasons.append(f"the positional arguments of `{module.text(node.func)[:40]}`")
    for keyword in node.keywords:
        if keyword.arg is None:
            found.reasons.append(f"**{module.text(keyword.value)[:40]}")
        elif keyword.arg == model:
            found.entries["model"] = entry(reader, frame, "model", keyword, keyword.value, None)
        elif keyword.arg == mapping:
            found.merge(spread(reader, keyword.value, frame))
    return found

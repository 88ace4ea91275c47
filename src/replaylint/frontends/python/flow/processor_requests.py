"""Requests of Ray Data's LLM processors: `build_llm_processor(config, preprocess=lambda row: dict(...,
sampling_params={...}))`, each row's request sent to the engine the config builds."""

from __future__ import annotations

import ast
from typing import Iterator

from ....model import Assumption, Request
from .callsites import argument_at, calls
from .frames import Frame
from .module import Module
from .reader import Engine, Qualified, Reader


def processor_requests(reader: Reader, module: Module) -> Iterator[tuple[ast.Call, Request, tuple[Assumption, ...], None]]:
    """Ray Data's `build_llm_processor(config, preprocess=lambda row: dict(..., sampling_params={...}))`:
    each row's request to the engine the config builds (`SamplingParams(**sampling_params)`)."""
    for call in calls(module, ("build_llm_processor(",)):
        frame = Frame(module, call.scope, call.cls, None, call.placed)
        callee = reader.evaluate(call.node.func, frame).ref
        if not (isinstance(callee, Qualified) and callee.name == "ray.data.llm.build_llm_processor"):
            continue
        config = argument_at(call.node, "config", 0)
        engine = reader.evaluate(config, frame).ref if config is not None else None
        preprocess = argument_at(call.node, "preprocess", 1)
        if not isinstance(engine, Engine) or not isinstance(preprocess, ast.Lambda):
            continue
        params = _row_key(preprocess.body, "sampling_params")
        if params is None:
            continue
        found = reader.evaluate(params, frame).kwargs
        if found is None:
            yield engine.call, Request("sampling", module.span(params), {}, open_ended=True), (), None
            continue
        settings = {name: entry.setting for name, entry in found.entries.items() if not entry.guards}
        open_ended = bool(found.reasons) or len(settings) < len(found.entries)
        assumptions = tuple(Assumption(condition, span) for entry in found.entries.values() for condition, span in entry.assumptions)
        yield engine.call, Request("sampling", module.span(params), settings, open_ended), assumptions, None


def _row_key(row: ast.expr, key: str) -> ast.expr | None:
    """The value a row made by `dict(k=v)` or `{"k": v}` gives `key`."""
    if isinstance(row, ast.Call) and isinstance(row.func, ast.Name) and row.func.id == "dict":
        return next((k.value for k in row.keywords if k.arg == key), None)
    if isinstance(row, ast.Dict):
        return next((v for k, v in zip(row.keys, row.values) if isinstance(k, ast.Constant) and k.value == key), None)
    return None

"""A SkyRL fork's `skyrl/train/config/config.py` (`skyrl_fork`): the values its config classes
declare rather than build, read with CPython's parser: the literal default of
`InferenceEngineConfig.engine_init_kwargs`, and the `SamplingParams(...)` it gives unset eval requests."""

from __future__ import annotations

import ast

from ..model import UNKNOWN
from .built_dicts import BuiltDict, Written
from .fork_source import literal, parse, snippet


def eval_default(path: str, text: str) -> BuiltDict | None:
    """The literal `temperature`/`top_k` of the `SamplingParams(...)` the config assigns to
    `self.eval_sampling_params` when the launch writes none (SkyRL's: `temperature=0.0`), each at its line."""
    module = parse(text)
    for node in ast.walk(module) if module is not None else ():
        if isinstance(node, ast.Assign) and isinstance(target := node.targets[0], ast.Attribute) and target.attr == "eval_sampling_params":
            call = node.value
            if isinstance(call, ast.Call) and getattr(call.func, "id", getattr(call.func, "attr", "")) == "SamplingParams":
                given = (Written(k.arg, literal(k.value), snippet(text, k.value), k.value.lineno, True) for k in call.keywords if k.arg)
                return BuiltDict(path, {w.key: w for w in given if w.key in ("temperature", "top_k") and w.value is not UNKNOWN})
    return None


def engine_defaults(path: str, text: str) -> BuiltDict | None:
    """`engine_init_kwargs: Dict[str, Any] = field(default_factory=lambda: {...})` (or `dict(...)`)
    in the fork's config: its literal keys."""
    module = parse(text)
    for node in ast.walk(module) if module is not None else ():
        if isinstance(node, ast.AnnAssign) and getattr(node.target, "id", "") == "engine_init_kwargs" and node.value is not None:
            factory = next((k.value for k in getattr(node.value, "keywords", ()) if k.arg == "default_factory"), None)
            made = factory.body if isinstance(factory, ast.Lambda) else None
            pairs = (
                zip(made.keys, made.values)
                if isinstance(made, ast.Dict)
                else ((k.arg, k.value) for k in made.keywords)
                if isinstance(made, ast.Call) and getattr(made.func, "id", "") == "dict"
                else ()
            )
            entries = {}
            for key, value in pairs:
                name = key if isinstance(key, str) else literal(key) if key is not None else None
                if isinstance(name, str):
                    entries[name] = Written(name, literal(value), snippet(text, value), value.lineno, True)
            return BuiltDict(path, entries, text=text) if entries else None
    return None

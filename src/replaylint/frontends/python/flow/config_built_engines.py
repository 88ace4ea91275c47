"""vLLM's engines built from the engine arguments' `VllmConfig` rather than from the arguments
themselves: `AsyncLLM.from_engine_args(engine_args)`, and RLinf's vLLM worker (and vLLM's own
`AsyncLLM.from_engine_args`) spelling it out: `vllm_config = engine_args.create_engine_config()`,
then `AsyncLLM(vllm_config=vllm_config, executor_class=..., log_stats=...)` (or
`AsyncLLM.from_vllm_config(vllm_config)`, `LLMEngine(vllm_config=...)`). Each is the engine those
engine arguments make; the other keywords (executor, logging, usage context) do not change what
it samples. A config the flow does not trace to engine arguments leaves the engine unknown."""

from __future__ import annotations

import ast

from .facts import NOTHING, Val
from .frames import Evaluates, Frame
from .refs import Engine, Qualified

_CLASSES = frozenset(("AsyncLLM", "AsyncLLMEngine", "LLMEngine"))
_MAKERS = frozenset(("from_engine_args", "from_vllm_config", "create_engine_config"))


def config_built(reader: Evaluates, node: ast.Call, frame: Frame) -> Val | None:
    """The engine arguments' engine a call makes (NOTHING where they are not known); None: not
    such a call."""
    func = node.func
    if isinstance(func, ast.Attribute) and func.attr in _MAKERS:
        if func.attr == "create_engine_config":  # `engine_args.create_engine_config()`: the config they make
            return _engine(reader.evaluate(func.value, frame)) if not node.args else None
        given = node.args[0] if node.args else _keyword(node, "vllm_config" if func.attr == "from_vllm_config" else "engine_args")
        return _engine(reader.evaluate(given, frame)) if given is not None else None
    given = _keyword(node, "vllm_config")
    if given is None or node.args or not _engine_class(reader.evaluate(func, frame)):
        return None
    return _engine(reader.evaluate(given, frame))


def _keyword(node: ast.Call, name: str) -> ast.expr | None:
    return next((keyword.value for keyword in node.keywords if keyword.arg == name), None)


def _engine_class(callee: Val) -> bool:
    ref = callee.ref
    if isinstance(ref, Qualified):
        module, _, short = ref.name.rpartition(".")
        return short in _CLASSES and (module == "vllm" or module.startswith("vllm."))
    return False


def _engine(made: Val) -> Val:
    return made if isinstance(made.ref, Engine) else NOTHING

"""Membership tests the reader decides: `key in ENGINE_KEYS` of strings the tree spells out (a
set, list, tuple, or a mapping's keys), and `key in inspect.signature(EngineArgs).parameters`.
The engine arguments replay rules read (`vllm.engine_fields`) and the names every release declares
(`vllm.engine_arg_names`) are fields of `EngineArgs`; any other name may or may not be a field of the
release run, so its test is undecided.
The names of `SamplingParams.from_optional`'s parameters are known (`vllm.sampling_fields`), also
as AutoRAG lists them (`[param.name for param in inspect.signature(SamplingParams.from_optional)
.parameters.values()]`): a name every release has is in, one no release has is not, and one only
later releases have is undecided."""

from __future__ import annotations

import ast
from typing import Any

from .facts import NOTHING, Val
from .frames import Evaluates, Frame, reaching
from .refs import Engine, Qualified, is_sampling

_SYNC_FIELDS = "EngineArgs' fields"
_ASYNC_FIELDS = "AsyncEngineArgs' fields"
_ENGINE_FIELDS = (_SYNC_FIELDS, _ASYNC_FIELDS)
_SERVER_ONLY = ("enable_scale_out", "tokens_only")  # options of `vllm serve`, not fields of EngineArgs
_FROM_OPTIONAL = "the parameters of SamplingParams.from_optional"
_MAX_BINDINGS = 3  # names bound to the next step followed (`params = ....values()`, then `names = [p.name for p in params]`)


def member(reader: Evaluates, key: str, node: ast.expr, frame: Frame) -> bool | None:
    """Whether the text `key` is among what `node` holds (None: not known)."""
    members = _members(reader, node, frame)
    if members in _ENGINE_FIELDS:
        return _engine_field(key, members == _ASYNC_FIELDS)
    if members is _FROM_OPTIONAL:
        from ....vllm.sampling_fields import FROM_OPTIONAL_LATER, FROM_OPTIONAL_PARAMETERS

        return None if key in FROM_OPTIONAL_LATER else key in FROM_OPTIONAL_PARAMETERS
    return None if members is None else key in members


def members_of(reader: Evaluates, node: ast.expr, frame: Frame) -> set[str] | None:
    """The strings `node` holds (a set, list, tuple spelt out, or a mapping known whole's keys); None: not known."""
    members = _members(reader, node, frame)
    return None if members in (*_ENGINE_FIELDS, _FROM_OPTIONAL) else members


def _members(reader: Evaluates, node: ast.expr, frame: Frame) -> Any:
    """The strings `node` holds (a set, list, tuple or dict's keys), `_ENGINE_FIELDS`, `_FROM_OPTIONAL`, or None."""
    if _from_optional_names(reader, node, frame, _MAX_BINDINGS):
        return _FROM_OPTIONAL
    if isinstance(node, ast.Name):
        binding = reaching(frame, node.id)
        if binding is not None and binding.kind == "value" and (signed := _engine_signature(reader, binding.value, frame)):
            return signed
    elif signed := _engine_signature(reader, node, frame):
        return signed
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "keys" and not node.args:
        node = node.func.value  # `key in config.keys()`: the mapping's keys
    read = reader.evaluate(node, frame)
    if read.kwargs is not None:
        return None if read.kwargs.reasons else set(read.kwargs.entries)
    if isinstance(read.value, (list, tuple, set, frozenset)) and all(isinstance(item, str) for item in read.value):
        return set(read.value)
    return None


def _engine_signature(reader: Evaluates, node: ast.expr | None, frame: Frame) -> str | None:
    """Whose fields `inspect.signature(EngineArgs).parameters` (or `AsyncEngineArgs`, also `.keys()` of it) holds."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "keys" and not node.args:
        node = node.func.value  # twinkle's `valid_args = inspect.signature(AsyncEngineArgs).parameters.keys()`
    if not (isinstance(node, ast.Attribute) and node.attr == "parameters" and isinstance(node.value, ast.Call)):
        return None
    call = node.value
    if not (frame.module.text(call.func).endswith("signature") and len(call.args) == 1):
        return None
    made = reader.evaluate(call.args[0], frame).ref
    if not (isinstance(made, Qualified) and made.name.startswith("vllm")):
        return None
    short = made.name.rsplit(".", 1)[-1]
    return _ASYNC_FIELDS if short == "AsyncEngineArgs" else _SYNC_FIELDS if short == "EngineArgs" else None


def _engine_field(key: str, in_async: bool) -> bool | None:
    """Whether `key` is a parameter of `EngineArgs` (`in_async`: of `AsyncEngineArgs`): those replay rules read
    and those every release declares are; any other name may be one of the release run, so it is not known."""
    from ....vllm.engine_arg_names import ASYNC_ENGINE_ARGS_OWN, ENGINE_ARGS_FIELDS
    from ....vllm.engine_fields import FIELDS

    if key in _SERVER_ONLY:
        return None
    return True if key in FIELDS or key in ENGINE_ARGS_FIELDS or (in_async and key in ASYNC_ENGINE_ARGS_OWN) else None


def _from_optional_names(reader: Evaluates, node: ast.expr, frame: Frame, steps: int, named: bool = False) -> bool:
    """Whether `node` holds the names of `SamplingParams.from_optional`'s parameters:
    `inspect.signature(F).parameters` (its keys, also `.keys()` and `list(...)` of them), or
    `[p.name for p in ....parameters.values()]` (`named`: the parameter objects themselves,
    `.parameters.values()`), also through a name bound to it once where it is read."""
    if isinstance(node, ast.Name) and steps > 0:
        binding = reaching(frame, node.id)
        held = binding.value if binding is not None and binding.kind == "value" else None
        return held is not None and _from_optional_names(reader, held, frame, steps - 1, named)
    if isinstance(node, ast.ListComp) and not named and len(node.generators) == 1 and not node.generators[0].ifs:
        made, loop = node.elt, node.generators[0]
        taken = isinstance(made, ast.Attribute) and made.attr == "name" and isinstance(made.value, ast.Name)
        over = isinstance(loop.target, ast.Name) and taken and made.value.id == loop.target.id  # type: ignore[attr-defined]
        return over and _from_optional_names(reader, loop.iter, frame, steps, named=True)
    if isinstance(node, ast.Call) and not node.args and isinstance(node.func, ast.Attribute):
        if node.func.attr != ("values" if named else "keys"):
            return False
        node = node.func.value
    elif isinstance(node, ast.Call) and not named and frame.module.text(node.func) == "list" and len(node.args) == 1:
        node = node.args[0]
    if not (isinstance(node, ast.Attribute) and node.attr == "parameters" and isinstance(node.value, ast.Call)):
        return False
    call = node.value
    if not (frame.module.text(call.func).endswith("signature") and len(call.args) == 1 and not call.keywords):
        return False
    made = reader.evaluate(call.args[0], frame).ref
    return isinstance(made, Qualified) and made.name.endswith(".from_optional") and is_sampling(made.name.rsplit(".", 1)[0])


def has_attribute(reader: Evaluates, node: ast.Call, frame: Frame) -> Val:
    """`hasattr(params, key)` of vLLM's `SamplingParams(...)` (or the class) and a known text: True
    for its fields (`vllm.sampling_fields`); another name may be a method or property, so the test
    stays unknown."""
    from ....vllm.sampling_fields import SAMPLING_PARAMS_FIELDS

    key = reader.evaluate(node.args[1], frame).value
    if not isinstance(key, str) or key not in SAMPLING_PARAMS_FIELDS:
        return NOTHING
    return Val(True) if sampling_object(reader, reader.evaluate(node.args[0], frame)) else NOTHING


def sampling_object(reader: Evaluates, read: Val) -> bool:
    """Whether a value is vLLM's `SamplingParams(...)` (or the class itself)."""
    made = read.ref
    called = reader.evaluate(made.call.func, made.frame).ref if isinstance(made, Engine) else made
    return isinstance(called, Qualified) and is_sampling(called.name)

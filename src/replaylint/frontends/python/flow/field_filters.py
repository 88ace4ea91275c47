"""Options kept by the fields of vLLM's class they are for (generative-computing/mellea's
`{field.name: options[field.name] for field in dataclasses.fields(cls) if field.name in options}`,
and the same over `msgspec.structs.fields(cls)` for `SamplingParams`, a msgspec struct): a key of
`options` stays when the class declares it. The fields of `EngineArgs`, `AsyncEngineArgs` and
`SamplingParams` are known for the releases replaylint knows (`vllm.engine_arg_names`,
`vllm.sampling_fields`): a name every release declares stays, one none declares is dropped, and one
only some declare may pass, which leaves the mapping open."""

from __future__ import annotations

import ast
import os
from collections.abc import Callable

from .dicts import as_val
from .facts import NOTHING, Val
from .frames import Evaluates, Frame
from .refs import Qualified, is_sampling

_LISTERS = ("dataclasses.fields", "msgspec.structs.fields")


def field_filtered(reader: Evaluates, node: ast.DictComp, frame: Frame) -> Val | None:
    """The mapping the comprehension keeps; None when it is not a field filter, NOTHING when the
    class or the options are not known."""
    shape = _shape(node)
    if shape is None:
        return None
    lister, cls, options = shape
    listed = reader.evaluate(lister, frame).ref
    if not (isinstance(listed, Qualified) and listed.name in _LISTERS):
        return None
    declares = _declares(reader.evaluate(cls, frame).ref)
    source = reader.evaluate(options, frame).kwargs
    if declares is None or source is None:
        return NOTHING
    found = source.rebuilt({})
    found.home = None  # a key added to the options may not be a field
    for name, entry in source.entries.items():
        kept = declares(name)
        if kept is None:
            found.reasons.append(f"`{name}` may be a field at {os.path.basename(frame.module.path)}:{node.lineno}")
        elif kept:
            found.entries[name] = entry
    return as_val(found, frame.module.span(node))


def _shape(node: ast.DictComp) -> tuple[ast.expr, ast.expr, ast.expr] | None:
    """(the fields' lister, the class, the options) of `{f.name: options[f.name] for f in
    lister(cls) if f.name in options}`."""
    if len(node.generators) != 1 or node.generators[0].is_async or len(node.generators[0].ifs) != 1:
        return None
    generator = node.generators[0]
    target, listed, test = generator.target, generator.iter, generator.ifs[0]
    if not (isinstance(target, ast.Name) and isinstance(listed, ast.Call) and len(listed.args) == 1 and not listed.keywords):
        return None
    value = node.value
    if not (_named(node.key, target.id) and isinstance(value, ast.Subscript) and _named(value.slice, target.id)):
        return None
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.In) and _named(test.left, target.id)):
        return None
    if ast.dump(test.comparators[0]) != ast.dump(value.value):
        return None  # the test and the value read different mappings
    return listed.func, listed.args[0], value.value


def _named(node: ast.expr, variable: str) -> bool:
    """`f.name` of the comprehension's `f`."""
    return isinstance(node, ast.Attribute) and node.attr == "name" and isinstance(node.value, ast.Name) and node.value.id == variable


def _declares(cls: object) -> Callable[[str], bool | None] | None:
    """Whether the class declares a field of that name (None: only some releases do); None for a
    class whose fields are not known here."""
    if not (isinstance(cls, Qualified) and cls.name.startswith("vllm")):
        return None
    if is_sampling(cls.name):
        from ....vllm.sampling_fields import SAMPLING_PARAMS_FIELDS, SAMPLING_PARAMS_LATER_FIELDS, SAMPLING_PARAMS_PRIVATE_FIELDS

        every = SAMPLING_PARAMS_FIELDS | SAMPLING_PARAMS_PRIVATE_FIELDS
        return lambda name: None if name in SAMPLING_PARAMS_LATER_FIELDS else name in every
    short = cls.name.rsplit(".", 1)[-1]
    if short not in ("EngineArgs", "AsyncEngineArgs"):
        return None
    from ....vllm.engine_arg_names import ASYNC_ENGINE_ARGS_OWN, ENGINE_ARGS_FIELDS, ENGINE_ARGS_SOME_RELEASES

    every = ENGINE_ARGS_FIELDS | ASYNC_ENGINE_ARGS_OWN if short == "AsyncEngineArgs" else ENGINE_ARGS_FIELDS
    return lambda name: None if name in ENGINE_ARGS_SOME_RELEASES else name in every

"""What a value of the flow may stand for besides a Python value: a function of the tree, a
`functools.partial`, a name from outside the tree, an engine or params construction."""

from __future__ import annotations

import ast
from dataclasses import field
from typing import Any

from ....records import record
from .facts import Kwargs, Val
from .frames import Frame
from .module import Module


@record(unsafe_hash=True)
class Function:
    """A function of the tree (`cls`: the class it is a method of)."""

    module: Module
    node: ast.FunctionDef | ast.AsyncFunctionDef
    cls: ast.ClassDef | None = None
    outer: Frame | None = field(default=None, compare=False)  # a closure: the frame of the call of its enclosing function
    init: dict | None = field(default=None, compare=False)  # a base's method of another module: its `__init__`'s arguments


@record(unsafe_hash=True)
class Bound:
    """A method of a record read on one object of it (`cfg.to_engine_kwargs`): `fields` are `self`'s."""

    function: Function
    fields: Kwargs = field(compare=False)


@record(unsafe_hash=True)
class Partial:
    """`functools.partial(func, **kwargs)`: `span` is the partial's call."""

    func: Val
    kwargs: Kwargs
    span: Any
    positional: tuple[Val, ...] | None = ()  # bound before the call's own (None: a spread nobody can read)


@record(unsafe_hash=True)
class Qualified:
    """A name imported from outside the tree (`vllm.LLM`)."""

    name: str


@record(unsafe_hash=True)
class Engine:
    """An engine constructor call, read in a frame."""

    call: ast.Call
    frame: Frame
    attributes: Kwargs | None = None  # written on the object after its construction (`sp.top_k = 0`)
    partial: Partial | None = None  # the call is of this partial (`make_params(n=8)`): its keywords come first


@record(unsafe_hash=True)
class Actor:
    """A Ray actor of a class of the tree, made by `call` (`Cls.remote(...)`, `Cls.options(...).remote(...)`) read in `frame`."""

    call: ast.Call
    frame: Frame


@record(unsafe_hash=True)
class Each:
    """A list every item of which holds `item` (`each_items`); whether it has any is not known."""

    item: Any


_ENGINES = ("LLM", "EngineArgs", "AsyncEngineArgs")
_SAMPLING = ("vllm.SamplingParams", "vllm.sampling_params.SamplingParams")
_PARAMS = frozenset(
    (*_SAMPLING, *(f"{name}.from_optional" for name in _SAMPLING), "vllm.BeamSearchParams", "vllm.sampling_params.BeamSearchParams")
)
_ENGINE_MODULES = ("vllm", "vllm.entrypoints.llm", "vllm.engine.arg_utils")


# Library configs that build one of vLLM's engines (`engine_configs`): qualified name -> (the
# keyword that names the model, the keyword that holds the engine's arguments)
ENGINE_CONFIGS = {
    "ray.data.llm.vLLMEngineProcessorConfig": ("model_source", "engine_kwargs"),
}


def engine_name(name: str) -> bool:
    module, _, short = name.rpartition(".")
    return short in _ENGINES and module in _ENGINE_MODULES


def is_sampling(name: str) -> bool:
    """vLLM's `SamplingParams` class."""
    return name in _SAMPLING


def is_params(name: str) -> bool:
    """`SamplingParams(...)`, `SamplingParams.from_optional(...)`, `BeamSearchParams(...)`."""
    return name in _PARAMS


# What a namespace holding vLLM's engine options rests on: those not set keep the engine's defaults,
# which is what their absence means (`LLM(**vars(args))`).
ENGINE_OPTIONS = "vLLM's engine options keep the defaults `{}` gives them"


def handed_engine_options(assumed: list[str]) -> str | None:
    """The call that gave a namespace vLLM's engine options (`EngineArgs.add_cli_args`), if one did."""
    prefix, _, suffix = ENGINE_OPTIONS.partition("{}")
    return next((c[len(prefix) : -len(suffix)] for c in assumed if c.startswith(prefix) and c.endswith(suffix)), None)


@record(unsafe_hash=True)
class NotGiven:
    """An optional argparse option declared with no default, not given on the command line: argparse's
    None, read only by a test (`args.config or find_config_file()`); its value otherwise stays unknown."""

    dest: str


@record(unsafe_hash=True)
class NamedFile:
    """A path the module's own place decides (`Path(__file__).parent / "conf.toml"`), as a value
    handed on: a function that opens its parameter opens that file."""

    path: str

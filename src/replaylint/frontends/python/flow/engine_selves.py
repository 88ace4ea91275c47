"""`self` in a method of a class that keeps vLLM's engine `__init__` (`class LongCiteModel(LLM)`,
whose `chat()` calls `self.generate(...)`): the engine the object's construction built."""

from __future__ import annotations

import ast

from .class_caches import cached_engine
from .engine_subclasses import keeps_engine_init
from .engines import caller_frame, constructions
from .frames import Frame
from .reader import Engine, Reader


def held_engine(reader: Reader, receiver: ast.expr, frame: Frame) -> Engine | None:
    """The engine a receiver the reader does not evaluate to one holds: a class attribute's cache
    (`_VLLMBackend.llm`), or `self` of a subclass that keeps the engine's `__init__`."""
    return cached_engine(reader, receiver, frame) or self_engine(reader, receiver, frame)


def self_engine(reader: Reader, receiver: ast.expr, frame: Frame) -> Engine | None:
    """The construction of the object whose method `frame` reads, where the reader came from one
    (`model = LongCiteModel(...)`, then `model.query_longcite(...)`); None otherwise (not known which)."""
    cls = frame.cls
    if not (isinstance(receiver, ast.Name) and receiver.id == "self" and cls is not None and frame.made is not None):
        return None
    if not keeps_engine_init(frame.module, cls):
        return None
    for home, site in constructions(reader, frame.module, cls, elsewhere_too=True):
        if home.span(site.node) == frame.made:
            return Engine(site.node, caller_frame(reader, home, site))
    return None

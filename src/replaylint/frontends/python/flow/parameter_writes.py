"""Attributes a function writes on an object it is handed before it uses it (Super_MARIO's
`local_vllm(prompt, llm, sampling_params, n, temperature)` writing `sampling_params.temperature =
temperature` before `llm.generate(...)`): the request the caller passed, with those writes."""

from __future__ import annotations

from .facts import Val
from .frames import Frame
from .members import Reader, with_attributes
from .module import Placed
from .objects import Instance
from .refs import Engine


def written_on_parameter(reader: Reader, read: Val, name: str, frame: Frame) -> Val:
    """`read`, what the caller passes for the parameter `name`, with the attributes the function
    writes on it before the statement reading it (each under its branches, read where written)."""
    if not isinstance(read.ref, (Engine, Instance)) or frame.function is None or frame.at is None:
        return read
    start = Placed(frame.function, (), -1)  # the function's first statement comes after this
    return with_attributes(reader, read, name, frame, start, frame.at)

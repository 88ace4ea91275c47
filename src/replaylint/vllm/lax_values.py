"""How vLLM reads values: pydantic's lax booleans, the runner variable's `int()`."""

from __future__ import annotations

from typing import Any

from ..model import UNKNOWN

_TRUE = {"1", "on", "t", "true", "y", "yes"}
_FALSE = {"0", "off", "f", "false", "n", "no"}


def as_bool(value: Any) -> Any:
    """A boolean as pydantic's lax mode reads it; UNKNOWN when it cannot be told.

    None counts as False (the field's default), so callers can pass absent values straight in.
    """
    if value is UNKNOWN:
        return UNKNOWN
    if value is None or isinstance(value, bool):
        return bool(value)
    if isinstance(value, (int, float)) and value in (0, 1):
        return bool(value)
    if isinstance(value, str):
        lowered = value.strip().lower()
        if lowered in _TRUE:
            return True
        if lowered in _FALSE:
            return False
    return UNKNOWN


def as_int(value: Any) -> Any:
    """An integer setting (`-tp 2`, `tensor_parallel_size="2"`); UNKNOWN when unreadable."""
    if value is UNKNOWN or isinstance(value, bool):
        return UNKNOWN
    if isinstance(value, int):
        return value
    if isinstance(value, str):
        try:
            return int(value.strip())
        except ValueError:
            return UNKNOWN
    return UNKNOWN


def runner_env(value: Any) -> Any:
    """`VLLM_USE_V2_MODEL_RUNNER` as `maybe_convert_bool` reads it: `bool(int(value))`.

    Returns True, False, UNKNOWN, or a ValueError for text `int()` rejects (`true`, `''`).
    """
    if value is UNKNOWN:
        return UNKNOWN
    if isinstance(value, bool):
        value = int(value)
    try:
        return bool(int(str(value)))
    except ValueError as error:
        return error


def is_truthy_list(value: Any) -> Any:
    """`bool(logits_processors)`: any non-empty list counts, even `[None]`."""
    if value is UNKNOWN:
        return UNKNOWN
    if value is None:
        return False
    if isinstance(value, (list, tuple)) and any(item is None for item in value):
        return UNKNOWN  # `--logits-processors ''`: ModelConfig rejects the None element first
    if isinstance(value, (list, tuple, str, dict)):
        return bool(value)
    return UNKNOWN

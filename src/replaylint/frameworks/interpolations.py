"""OmegaConf's `${...}` interpolations in a framework's YAML: resolved from elsewhere (another key, the
environment, a resolver), so their values are unknown where a config is read as written (ROLL's, torchforge's)."""

from __future__ import annotations

from typing import Any

from ..model import UNKNOWN, Setting


def unresolved(value: Any) -> Any:
    """`value` with every interpolation (inside strings, lists and dicts) unknown."""
    if isinstance(value, str) and "${" in value:
        return UNKNOWN
    if isinstance(value, dict):
        return {key: unresolved(item) for key, item in value.items()}
    if isinstance(value, list):
        return [unresolved(item) for item in value]
    return value


def resolved(setting: Setting) -> Setting:
    """The setting, its value's interpolations unknown."""
    value = unresolved(setting.value)
    if value == setting.value and type(value) is type(setting.value):
        return setting
    return Setting(setting.name, value, setting.span, setting.spelling, setting.value_span, setting.keys)

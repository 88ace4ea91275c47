"""The engine arguments a framework copies from keys of its own config (NeMo-RL's `vllm_cfg`,
SkyRL's `generator.inference_engine`): each key as the engine argument it is passed as, and
`expert_parallel_size` as vLLM's `enable_expert_parallel` (both write
`enable_expert_parallel=...["expert_parallel_size"] > 1`)."""

from __future__ import annotations

from typing import Callable, Mapping

from ..model import UNKNOWN, Setting
from .views import ConfigView


def copied_settings(
    view: ConfigView, path: tuple[str, ...], typed: Mapping[str, str], skipped: Callable[[str, str], bool] | None = None
) -> dict[str, Setting]:
    """The settings the keys under `path` give (`typed`: key -> engine argument; `skipped(key,
    name)`: a key the framework does not pass on), in the order of `typed`."""
    settings: dict[str, Setting] = {}
    for key, name in typed.items():
        setting = None if skipped is not None and skipped(key, name) else view.setting(name, *path, key)
        if setting is not None:
            settings[name] = setting
    expert = view.setting("enable_expert_parallel", *path, "expert_parallel_size")
    if expert is not None:
        size = expert.value
        settings["enable_expert_parallel"] = Setting(
            expert.name, size > 1 if isinstance(size, int) else UNKNOWN, expert.span, expert.spelling
        )
    return settings

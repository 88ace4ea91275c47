"""ROLL (alibaba/ROLL, commit 8eb27cc2, August 2026; not on PyPI): the vLLM engine of a worker
whose `strategy_args.strategy_name` is `vllm`.

Source: `roll/distributed/strategy/vllm_strategy.py` `VllmStrategy.initialize` deep-copies the
worker's `strategy_args.strategy_config`, pops `VLLM_USE_V1` and `sleep_level`, then
`vllm_config.update({...})` with `model` (`model_args.model_name_or_path`), `dtype` (from
`model_args.dtype`: fp32/fp16/bf16, else auto), `trust_remote_code=True`, `seed`, and the user's
value or ROLL's default for `enforce_eager` (False), `disable_custom_all_reduce` (True),
`enable_prefix_caching` (True), `load_format` ("dummy"), `max_num_batched_tokens` (8192);
`roll/third_party/vllm/__init__.py` `create_async_llm` adds `enable_sleep_mode=True` and calls
`AsyncEngineArgs(**kwargs)`: the mapping is the whole engine configuration, its keys as written
(a kebab-case key is a `TypeError`, never the mask). ROLL never sets `logprobs_mode` (vLLM's
`raw_logprobs` applies) nor the runner variable. Environment: the worker's `system_envs` over the
top-level `system_envs` (`roll/configs/base_config.py`, copied to actor_train, actor_infer,
reference and critic). Requests: `SamplingParams` from the worker's `generating_args`
(`roll/configs/generating_args.py` defaults `temperature: 0.95`, `top_k: 50`), and for
`actor_infer` the `validation.generating_args` too; `num_beams > 1` is beam search
(`BeamSearchParams(temperature=...)`, no top-k).

Not seen: Hydra `defaults:` files (a config with a `defaults:` list is open-ended), `${...}`
interpolations (unknown values). See docs/frameworks-research-new-adapters.md section 1.
"""

from __future__ import annotations

import os
from typing import Any, Callable, Iterator

from ..launch_context import LaunchContext
from ..model import UNKNOWN, Launch, LaunchKind, Request, Setting, Span
from .interpolations import resolved
from .views import ConfigView

STRATEGY = ("strategy_args",)
CONFIG = ("strategy_args", "strategy_config")
_POPPED = ("VLLM_USE_V1", "sleep_level")  # VllmStrategy.initialize pops them before vLLM sees the dict
_USER_OR_DEFAULT = (  # vllm_config.get(key, default): the user's value wins
    ("enforce_eager", False),
    ("disable_custom_all_reduce", True),
    ("enable_prefix_caching", True),
    ("load_format", "dummy"),
    ("max_num_batched_tokens", 8192),
)
_FORCED = (("trust_remote_code", True), ("enable_sleep_mode", True))
_DTYPES = {"fp32": "float32", "fp16": "float16", "bf16": "bfloat16"}
REQUEST_DEFAULTS = {"temperature": 0.95, "top_k": 50}
# Roles that receive the top-level `system_envs` (base_config.py); others only their own.
_ENV_ROLES = ("actor_train", "actor_infer", "reference", "critic")
_MAX_DEPTH = 3  # workers sit at the top level or under `rewards.<domain>`


def is_config(view: ConfigView) -> bool:
    """A ROLL pipeline config: some top-level worker with a `strategy_args.strategy_name`."""
    root = view.value(default={})
    return isinstance(root, dict) and any(
        isinstance(worker, dict) and isinstance(worker.get("strategy_args"), dict) and "strategy_name" in worker["strategy_args"]
        for worker in root.values()
    )


def yaml_launches(
    view: ConfigView, path: str, read_text: object = None, read_view: Callable[[str], ConfigView | None] | None = None
) -> list[Launch] | None:
    """One launch per vLLM worker of a ROLL pipeline config (None: not one; the registry's YAML
    finder). `read_view` reads the Hydra `defaults:` files that may write worker settings."""
    if not is_config(view):
        return None
    launches = []
    workers = vllm_workers(view)
    reasons = _hydra_defaults(view, path, read_view, {worker[0] for worker in workers} | {"system_envs", "validation"})
    for worker in workers:
        anchor = view.key_span(*worker, *CONFIG) or view.key_span(*worker, *STRATEGY)
        if anchor is not None:
            context = LaunchContext(LaunchKind.FRAMEWORK, label=f"roll: {path}", open_reasons=tuple(reasons))
            launches.append(adapt(view, worker, anchor, context))
    return launches


def _hydra_defaults(view: ConfigView, path: str, read_view: Callable[[str], ConfigView | None] | None, keys: set[str]) -> list[str]:
    """Hydra `defaults:` entries that may write `keys` (the config's own keys win, as `_self_`
    comes last by default, but a default file may add engine keys the config leaves out). An
    entry `GROUP/NAME@_here_` (or `@_global_`) merges the file `GROUP/NAME.yaml`, next to the
    config, at the top level (so does an entry without a group); without a package, a group's
    file lands under the group's last name (Hydra's default package, inferred)."""
    defaults = view.value("defaults")
    if defaults is None:
        return []
    if not isinstance(defaults, list):
        return ["defaults: (not a list)"]
    reasons = []
    for entry in defaults:
        if entry == "_self_":
            continue
        if not isinstance(entry, str):
            reasons.append(f"defaults: {entry} (a config group option, not read here)")
            continue
        name, _, package = entry.partition("@")
        group = name.rstrip("/").rpartition("/")[0].rpartition("/")[2]  # `envs` of `envs/sokoban`
        landing = None if package in ("_here_", "_global_") or not (package or group) else (package or group).split(".")[0]
        if landing is not None and landing not in keys:
            continue
        candidate = os.path.normpath(os.path.join(os.path.dirname(path), name if name.endswith((".yaml", ".yml")) else name + ".yaml"))
        parent = read_view(candidate) if read_view is not None and not os.path.isabs(name) else None
        if parent is None:
            reasons.append(f"defaults: {entry} (not read here)")
        elif landing is not None or any(parent.has(key) for key in keys):
            reasons.append(f"defaults: {entry} (writes worker settings, not merged here)")
    return reasons


def vllm_workers(view: ConfigView) -> list[tuple[str, ...]]:
    """The paths of the workers that start vLLM (`strategy_name: vllm`)."""
    return list(_workers(view.value(default={}), ()))


def _workers(node: Any, path: tuple[str, ...]) -> Iterator[tuple[str, ...]]:
    if not isinstance(node, dict) or len(path) > _MAX_DEPTH:
        return
    strategy = node.get("strategy_args")
    if isinstance(strategy, dict) and strategy.get("strategy_name") == "vllm":
        yield path
        return
    for key, value in node.items():
        yield from _workers(value, (*path, str(key)))


def adapt(view: ConfigView, worker: tuple[str, ...], anchor: Span, context: LaunchContext) -> Launch:
    """The engine of the worker at `worker`; its defaults are reported at `anchor` (the worker's
    `strategy_config` key, or `strategy_name`). Of `context`, ROLL's configs give a label and
    reasons only (they are read from YAML, not a command line)."""
    reasons = list(context.open_reasons)
    settings: dict[str, Setting] = {}
    written = view.value(*worker, *CONFIG, default={})
    if isinstance(written, dict):
        for key in written:
            name = str(key)
            if name in _POPPED or "-" in name:
                continue  # popped by ROLL; a kebab-case key is no AsyncEngineArgs field
            setting = view.setting(name, *worker, *CONFIG, name)
            if setting is not None:
                settings[name] = resolved(setting)
    elif written is not None:
        reasons.append(f"{'.'.join((*worker, *CONFIG))} (not a mapping)")
    for key, default in _USER_OR_DEFAULT:
        if key not in settings:
            settings[key] = _default(key, default, anchor)
    for key, value in _FORCED:
        settings[key] = _default(key, value, anchor)
    model = view.setting("model", *worker, "model_args", "model_name_or_path")
    if model is not None:
        settings["model"] = resolved(model)
    dtype = view.setting("dtype", *worker, "model_args", "dtype")
    if dtype is not None:
        value = _DTYPES.get(dtype.value, "auto") if isinstance(dtype.value, str) and "${" not in dtype.value else UNKNOWN
        settings["dtype"] = Setting("dtype", value, dtype.span, dtype.spelling, dtype.value_span)
    mask = settings.get("return_sampling_mask")
    where = mask.span if mask is not None else anchor
    requests = list(_requests(view, (*worker, "generating_args"), where, bool(reasons), anchor))
    if worker == ("actor_infer",) and view.has("validation", "generating_args"):
        requests += _requests(view, ("validation", "generating_args"), where, bool(reasons), anchor)
    return Launch(
        LaunchKind.FRAMEWORK,
        anchor,
        settings,
        _environment(view, worker),
        open_reasons=tuple(reasons),
        requests=tuple(requests),
        label=f"{context.label} ({'.'.join(worker)})",
    )


def _default(key: str, value: Any, anchor: Span) -> Setting:
    return Setting(key, value, anchor, f"{key}={value!r} (ROLL default)", implied=True)


def _environment(view: ConfigView, worker: tuple[str, ...]) -> dict[str, Setting]:
    environment: dict[str, Setting] = {}
    layers = [("system_envs",)] if worker in tuple((role,) for role in _ENV_ROLES) else []
    for prefix in [*layers, (*worker, "system_envs")]:
        variables = view.value(*prefix, default={})
        if not isinstance(variables, dict):
            continue
        for name, value in variables.items():
            written = view.setting(str(name), *prefix, str(name), keys=False)
            if written is not None:
                text = UNKNOWN if value is None or (isinstance(value, str) and "${" in value) else str(value)
                environment[str(name)] = Setting(str(name), text, written.span, written.spelling, written.value_span)
    return environment


def _requests(view: ConfigView, prefix: tuple[str, ...], where: Span, open_ended: bool, anchor: Span) -> Iterator[Request]:
    """One kind of request; ROLL's defaults stand in for keys not written."""
    beams = view.value(*prefix, "num_beams", default=1)
    beam_search = (isinstance(beams, int) and not isinstance(beams, bool) and beams > 1) or view.value(*prefix, "use_beam_search") is True
    # Beam search takes only the temperature (`BeamSearchParams(temperature=...)`): it never bounds top_k.
    defaults = {"temperature": REQUEST_DEFAULTS["temperature"]} if beam_search else REQUEST_DEFAULTS
    found, missing = view.request_settings(prefix, defaults, where, open_ended, "ROLL")
    settings = {key: resolved(setting) for key, setting in found.items()}
    yield Request("beam_search" if beam_search else "sampling", view.span(*prefix) or anchor, settings, missing)

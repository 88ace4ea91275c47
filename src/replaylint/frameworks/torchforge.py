"""torchforge (meta-pytorch/torchforge; not on PyPI): the vLLM engine of the `policy` section of
a recipe YAML, which an app loads with `forge.cli.config.parse` (`--config FILE`, OmegaConf) and
hands whole to the generator actor (`Policy`/`Generator.options(...).as_service(**cfg.policy)`).

Two editions, told apart by the section's keys:

- `engine_config` / `sampling_config` (c5976983, 2025-09-09, to 136a5d61^, 2025-10-10:
  src/forge/actors/policy.py): `EngineConfig(EngineArgs).from_dict` keeps the keys that are its
  fields, over its own defaults `model`, `tensor_parallel_size=1`, `pipeline_parallel_size=1`,
  `enforce_eager=False`, `enable_expert_parallel=False`; the request is
  `get_default_sampling_params(vllm_config, overrides=sampling_config.asdict())`: the model's
  generation config (`model_config.get_diff_sampling_param()`, read at run time) updated with
  every field of `SamplingConfig` (`n=1`, `max_tokens=512`, `temperature=1.0`, `top_p=1.0`,
  `logprobs=1`), then `SamplingParams.from_optional`. `top_k` is no field of it: unless the
  section writes it (a field the user added), it is the model's, unknown here.
- `engine_args` / `sampling_params` (136a5d61 on; main @ 6e77f0b, 2025-11-15,
  src/forge/actors/generator.py): `EngineArgs(**engine_args)` and
  `SamplingParams.from_optional(**sampling_params)`: vLLM's defaults for keys not written.

A document is claimed when its top-level `policy` holds both keys of one edition (the engine's a
mapping). `${...}` interpolations are unknown here; `key=value` overrides on the app's command
line are not read.
"""

from __future__ import annotations

from typing import Callable

from ..model import UNKNOWN, Launch, LaunchKind, Request, Setting, Span
from .interpolations import resolved
from .views import ConfigView

OWNER = "torchforge"
SECTION = "policy"
# (engine key, sampling key) of each edition, the older first
EDITIONS = (("engine_config", "sampling_config"), ("engine_args", "sampling_params"))
ENGINE_CONFIG_DEFAULTS = (  # EngineConfig's own field defaults (older edition)
    ("tensor_parallel_size", 1),
    ("pipeline_parallel_size", 1),
    ("enforce_eager", False),
    ("enable_expert_parallel", False),
)
SAMPLING_CONFIG_DEFAULTS = {"temperature": 1.0, "top_p": 1.0}  # SamplingConfig's (older edition)
MODELS_OWN = "top_k (the model's generation config, `get_diff_sampling_param()` at run time)"


def edition(view: ConfigView) -> tuple[str, str] | None:
    """The (engine, sampling) keys of the edition the document is written for, or None."""
    policy = view.value(SECTION)
    if not isinstance(policy, dict):
        return None
    for engine, sampling in EDITIONS:
        if isinstance(policy.get(engine), dict) and sampling in policy:
            return engine, sampling
    return None


def yaml_launches(
    view: ConfigView, path: str, read_text: object = None, read_view: Callable[[str], ConfigView | None] | None = None
) -> list[Launch] | None:
    """The policy's engine of a torchforge recipe (None: not one; the registry's YAML finder)."""
    keys = edition(view)
    if keys is None:
        return None
    engine, sampling = keys
    anchor = view.key_span(SECTION, engine)
    if anchor is None:
        return None
    older = keys == EDITIONS[0]
    settings = _engine_settings(view, engine, anchor, older)
    mask = settings.get("return_sampling_mask")
    where = mask.span if mask is not None else anchor
    request = _request(view, (SECTION, sampling), where, older) if view.has(SECTION, sampling) else None
    return [
        Launch(
            LaunchKind.FRAMEWORK,
            anchor,
            settings,
            {},
            requests=() if request is None else (request,),
            label=f"{OWNER}: {path} ({SECTION}.{engine})",
        )
    ]


def _engine_settings(view: ConfigView, engine: str, anchor: Span, older: bool) -> dict[str, Setting]:
    settings: dict[str, Setting] = {}
    for key in view.value(SECTION, engine, default={}):
        name = str(key)
        if "-" in name:
            continue  # no EngineArgs field: dropped by `from_dict`, a TypeError for `EngineArgs(**)`
        setting = view.setting(name, SECTION, engine, name)
        if setting is not None:
            settings[name] = resolved(setting)
    if older:
        for key, default in ENGINE_CONFIG_DEFAULTS:
            if key not in settings:
                settings[key] = Setting(key, default, anchor, f"{key}={default!r} ({OWNER}'s EngineConfig default)", implied=True)
    return settings


def _request(view: ConfigView, prefix: tuple[str, ...], where: Span, older: bool) -> Request:
    """The generator's request: the older edition's `SamplingConfig` defaults stand in for keys not
    written, and its `top_k` is the model's unless written; the newer one's are vLLM's."""
    found, _ = view.request_settings(prefix, SAMPLING_CONFIG_DEFAULTS if older else {}, where, False, OWNER)
    written = view.value(*prefix, default={})
    for key in written if isinstance(written, dict) else ():
        setting = view.setting(str(key), *prefix, str(key))
        if setting is not None:
            found[str(key)] = setting
    if older and "top_k" not in found:
        found["top_k"] = Setting("top_k", UNKNOWN, where, MODELS_OWN, implied=True)
    settings = {key: resolved(setting) for key, setting in found.items()}
    return Request("sampling", view.span(*prefix) or where, settings)

"""NeMo-RL (NVIDIA-NeMo/RL): the in-process vLLM engine of `policy.generation`.

Sources (GitHub; the PyPI `nemo-rl` 0.0.0 is an empty placeholder), see
docs/frameworks-research.md §2. Editions (`EDITIONS`), told apart by git tag or commit (a
version number is no evidence: main's `package_info.py` still says 0.6.0):

- `main` @ 7ea279a (2026-08-22; since a704801): `vllm_worker.py:599-601` applies
  `vllm_cfg.logprobs_mode` after the `dict(...)` call; unset, `vllm_kwargs.logprobs_mode` or
  vLLM's own default (`raw_logprobs`) applies.
- `0.7.0` (tags v0.5.0, v0.6.0, v0.7.0): `vllm_worker.py` (v0.7.0:455)
  `logprobs_mode="processed_logprobs", **vllm_kwargs` in one `dict(...)` call, so a
  `vllm_kwargs.logprobs_mode` is `TypeError: dict() got multiple values for keyword argument
  'logprobs_mode'` and `vllm_cfg.logprobs_mode` is not read.
- `sampling-mask-replay` @ bb926d0b (not on main): main's worker plus
  `policy.sampling_mask_replay`, the key that chooses it.

- `nemo_rl/models/generation/vllm/vllm_worker.py`: `llm_kwargs = dict(model=..., tensor_parallel_size
  =vllm_cfg["tensor_parallel_size"], pipeline_parallel_size=..., enable_expert_parallel=
  vllm_cfg["expert_parallel_size"] > 1, gpu_memory_utilization=..., enforce_eager=...,
  max_model_len=..., load_format=..., ..., **vllm_kwargs)` for `vllm.LLM(**llm_kwargs)`, then
  `if logprobs_mode is not None: llm_kwargs["logprobs_mode"] = logprobs_mode` (newer text, index
  id 57934944553); older workers (@ f30c0d8d) hard-code `logprobs_mode="processed_logprobs"`.
  Which one is installed cannot be seen, so a `logprobs_mode` that NeMo-RL does not set is unknown.
- `nemo_rl/models/policy/sampling_mask_replay.py` @ bb926d0b `configure_vllm_for_sampling_mask_replay`:
  `policy.sampling_mask_replay.enabled: true` overwrites `vllm_kwargs["return_sampling_mask"] =
  True`, `vllm_cfg["logprobs_mode"] = "processed_logprobs"` and
  `env_vars["VLLM_USE_V2_MODEL_RUNNER"] = "1"`.
- `vllm_cfg.env_vars`: "Extra environment variables forwarded to every vLLM worker process"
  (`nemo_rl/models/generation/vllm/config.py` @ 0054c4ea).
- Requests: `policy.generation.temperature` / `top_k` (`top_k: null` is -1) / `top_p`.
- Overrides: `nemo_rl/utils/config.py` `parse_hydra_overrides` (Hydra's grammar; `+`/`++` add keys).

A fork: where NeMo-RL's own worker is in the checked tree, its code decides for every edition
(`nemo_rl_fork`: its engine dict, its order of writes, its `VLLM_*` writes, whether its requests
take the config's `top_k`/`temperature`), and messages name "the forked NeMo-RL" and the line.

A config is read from YAML (`yaml_launches`) or from a command line's `--config` (or the script's
default config) and overrides (`command_launch`), with the `defaults:` files it inherits (paths
relative to it, merged under it by `load_config_with_inheritance`, up to four deep) when the tree
holds them; a key a parent writes is spelled with the file that inherits it.

Values are Python keyword arguments: no command line is built. Only `backend: vllm` (or no
backend written) launches vLLM. Not seen: `defaults:` files out of reach, `${...}`
interpolations, the installed NeMo-RL (how strict `sampling_mask_replay` is; a key both in the typed `vllm_cfg`
and in `vllm_kwargs` is a `TypeError`).
"""

from __future__ import annotations

import posixpath
from dataclasses import replace
from typing import Any, Callable

from ..command import judged_without
from ..framework_registry import NEMO_RL_DEFAULT_CONFIGS
from ..launch_context import LaunchContext
from ..model import UNKNOWN, ArgIssue, Assumption, Launch, LaunchKind, Request, Setting, Span
from ..programs import Unread, script_name
from ..records import record
from ..vllm.command_line import Token
from ..vllm.engine_fields import RUNNER_ENV
from . import nemo_rl_fork
from .editions import Edition, Editions, build
from .engine_keys import copied_settings
from .nemo_rl_fork import WorkerFork
from .views import ConfigView, Inherited, Layered, read_hydra_overrides, read_overrides, token_tree


@record(unsafe_hash=True, kw_only=True)
class NemoRlEdition(Edition):
    """What one NeMo-RL edition's vLLM worker does with the logprobs mode and the replay switch
    (docs/frameworks-research.md §10).

    `logprobs_mode_in_call`: the `logprobs_mode` the worker's `dict(...)` call writes beside
    `**vllm_kwargs` (so a `vllm_kwargs.logprobs_mode` is a `TypeError` and `vllm_cfg.logprobs_mode`
    is not read); None: the call writes none, and `vllm_cfg.logprobs_mode` is applied after it when
    set. `sampling_mask_replay`: it reads `policy.sampling_mask_replay.enabled`, which turns the
    mask on, sets `logprobs_mode` to `replay_logprobs_mode` and `VLLM_USE_V2_MODEL_RUNNER=1`
    (`configure_vllm_for_sampling_mask_replay`)."""

    logprobs_mode_in_call: str | None
    sampling_mask_replay: bool = False
    replay_logprobs_mode: str = "processed_logprobs"


MAIN = NemoRlEdition(
    "main",
    refs=("7ea279abfbeb698b092856d0dab61e7cf39bc909", "main"),
    source="NVIDIA-NeMo/RL @ 7ea279a nemo_rl/models/generation/vllm/vllm_worker.py:570, :599-601",
    logprobs_mode_in_call=None,
)
REPLAY_BRANCH = NemoRlEdition(
    "sampling-mask-replay",
    refs=("bb926d0b92ace875d12bb4a227077c6c9ab96bfc",),
    source="NVIDIA-NeMo/RL @ bb926d0b nemo_rl/models/policy/sampling_mask_replay.py configure_vllm_for_sampling_mask_replay",
    logprobs_mode_in_call=None,
    sampling_mask_replay=True,
)
RELEASED = NemoRlEdition(
    "0.7.0",
    refs=(
        "v0.5.0",
        "v0.6.0",
        "v0.7.0",
        "6c7089300fded94abfa49bb9cbf9eb357d862461",
        "5fb588932bf835506a8a5bac01de4f8c7ab0a065",
        "81aa43dda4765b0429cf31dab44441e4e4383911",
    ),
    source="NVIDIA-NeMo/RL v0.7.0 vllm_worker.py:455 (v0.6.0 :561, v0.5.0 :419)",
    logprobs_mode_in_call="processed_logprobs",
)
_DEFAULT_CONFIGS = dict(NEMO_RL_DEFAULT_CONFIGS)
EDITIONS = Editions("NeMo-RL", "nemo-rl", "keywords", (MAIN, REPLAY_BRANCH, RELEASED))
# Another YAML file of the tree as a view (None: not readable, or not a mapping): the YAML frontend's.
ReadView = Callable[[str], "ConfigView | None"] | None
_TYPED = {  # vllm_cfg key -> engine argument, as the worker's dict(...) call writes them
    "tensor_parallel_size": "tensor_parallel_size",
    "pipeline_parallel_size": "pipeline_parallel_size",
    "gpu_memory_utilization": "gpu_memory_utilization",
    "max_model_len": "max_model_len",
    "enforce_eager": "enforce_eager",
    "load_format": "load_format",
    "skip_tokenizer_init": "skip_tokenizer_init",
    "enable_prefix_caching": "enable_prefix_caching",
}
_MAX_DEFAULTS = 4  # `defaults:` files followed from a config, parent after parent


@record(unsafe_hash=True)
class Layout:
    """Where a NeMo-RL program keeps its generation settings: training scripts under
    `policy.generation` (model `policy.model_name`), `run_eval.py` at the top-level `generation`
    (model `generation.model_name`, `nemo_rl/evals/eval.py` `VllmGeneration(cluster,
    config=master_config.generation)`), with the same `vllm_cfg` / `vllm_kwargs` and requests."""

    generation: tuple[str, ...]
    model: tuple[str, ...]
    replay: tuple[str, ...] | None

    @property
    def vllm_cfg(self) -> tuple[str, ...]:
        return (*self.generation, "vllm_cfg")

    @property
    def vllm_kwargs(self) -> tuple[str, ...]:
        return (*self.generation, "vllm_kwargs")


POLICY = ("policy",)
GENERATION = ("policy", "generation")
REPLAY = (*POLICY, "sampling_mask_replay", "enabled")
TRAINING = Layout(GENERATION, (*POLICY, "model_name"), REPLAY)
EVALUATION = Layout(("generation",), ("generation", "model_name"), None)


def layout_of(view: ConfigView) -> Layout | None:
    """A NeMo-RL configuration's layout: `policy.generation` with its vLLM tables (or the replay
    switch), or an evaluation config's top-level `generation` with them; None: not NeMo-RL's."""
    for layout in (TRAINING, EVALUATION):
        generation = view.value(*layout.generation)
        if isinstance(generation, dict) and any(key in generation for key in ("vllm_cfg", "vllm_kwargs")):
            return layout
    return TRAINING if view.has(*REPLAY) else None


def is_config(view: ConfigView) -> bool:
    return layout_of(view) is not None


def yaml_launches(
    view: ConfigView, path: str, read_text: Callable[[str], str | None] | None = None, read_view: ReadView = None
) -> list[Launch] | None:
    """A NeMo-RL config (None: not one; the registry's YAML finder): its generation settings, in
    the file or in the `defaults:` files it inherits (`read_view`), with a fork's worker when
    the tree holds one."""
    if not (view.has("policy") or view.has("generation")) or not (is_config(view) or view.has("defaults")):
        return None
    reasons: list[str] = []
    layered = _with_defaults(view, path, read_view, reasons, 0, path)
    layout = layout_of(layered)
    if layout is None:
        return None
    anchor = view.key_span(*layout.generation) or view.key_span(*layout.generation[:1]) or Span(path, 1, 1, 1, 1, 0, 0)
    forked = nemo_rl_fork.fork(path, read_text)
    context = LaunchContext(LaunchKind.FRAMEWORK, label=forked_label(f"nemo-rl: {path}", forked), open_reasons=tuple(reasons))
    launch = adapt(layered, anchor, context, forked=forked)
    if launch is None:
        return []
    alone = _run_alone(path)
    assumed = (Assumption(alone, whole=True),) if alone else ()
    return [replace(launch, config_alone=True, assumptions=(*assumed, *launch.assumptions))]


def _run_alone(path: str) -> str:
    """What NeMo-RL's own default config judged on its own rests on: the script whose default it
    is runs without `--config` ("": not such a config; a user's config is meant to be run)."""
    for script, default in NEMO_RL_DEFAULT_CONFIGS:
        if path == default or path.endswith("/" + default):
            return f"`{path[: -len(default)]}{script}` runs it as its default config"
    return ""


def _with_defaults(view: ConfigView, path: str, read_view: ReadView, reasons: list[str], depth: int, heir: str) -> ConfigView:
    """NeMo-RL's `defaults:` (a path or a list of paths next to the config, merged under it by
    `load_config_with_inheritance`) under the config; a parent's keys are spelled with the name
    of `heir`, the file checked (a finding that lands in a parent names the child)."""
    defaults = view.value("defaults")
    names = [defaults] if isinstance(defaults, str) else [d for d in defaults if isinstance(d, str)] if isinstance(defaults, list) else []
    layers: list[ConfigView] = []
    for name in names:
        candidate = posixpath.normpath(posixpath.join(posixpath.dirname(path), name))
        readable = depth < _MAX_DEFAULTS and not posixpath.isabs(name)
        parent = read_view(candidate) if read_view is not None and readable else None
        if parent is None:
            reasons.append(f"defaults: {name} (not read here)")
            continue
        layers.append(_with_defaults(Inherited(parent, heir), candidate, read_view, reasons, depth + 1, heir))
    return Layered([*layers, view]) if layers else view


def command_launch(context: LaunchContext, span: Span, tokens: list[Token]) -> Launch | None:
    """`python examples/run_grpo.py [--config FILE.yaml] key=value ...` (`tokens` start with the
    script): the config named by `--config`, else the script's default config (next to it in
    NeMo-RL's layout, `framework_registry.NEMO_RL_DEFAULT_CONFIGS`) when the tree holds it, with the
    `defaults:` files each names, under the overrides."""
    script, words = tokens[0], list(tokens[1:])
    name = script_name(script.text if script.text is not None else Unread(script.raw))
    reasons = list(context.open_reasons)
    load_config = context.load_config
    layers: list[ConfigView] = []
    if any(token.text == "--config" for token in words):
        position = next(i for i, token in enumerate(words) if token.text == "--config")
        path_token = words[position + 1] if position + 1 < len(words) else None
        del words[position : position + 2]
        if path_token is None or path_token.text is None:
            reasons.append(f"--config {path_token.raw if path_token else ''} (not readable here)".strip())
        else:
            layers = _config_layers(path_token.text, path_token, load_config, reasons, span.path)
    elif name in _DEFAULT_CONFIGS:
        default = _DEFAULT_CONFIGS[name]
        if script.text is None:
            reasons.append(f"the default config of {script.raw} ({default} next to it, not readable here)")
        else:
            layers = _config_layers(posixpath.join(posixpath.dirname(script.text), default), script, load_config, reasons, span.path)
    else:
        reasons.append(f"the config {script.raw} loads (not read here)")
    overrides = read_overrides(words) if name == "run_eval.py" else read_hydra_overrides(words)
    layers.append(overrides)
    reasons += overrides.open_reasons
    view = Layered(layers) if len(layers) > 1 else overrides
    layout = layout_of(view)
    if layout is None:
        return None
    forwarded = judged_without(overrides.forwarded, view.has(*layout.model), reasons)
    forked = nemo_rl_fork.fork(span.path, context.read_text)
    label = forked_label(f"nemo-rl: {' '.join(filter(None, (context.label, script.raw))) or 'run'}", forked)
    context = replace(context, label=label, forwarded=forwarded, open_reasons=tuple(reasons))
    return adapt(view, span, context, forked=forked)


def forked_label(label: str, forked: WorkerFork | None) -> str:
    return label + (f" (the fork's {forked.path})" if forked is not None else "")


def _config_layers(
    path: str, token: Token, load_config: Any, reasons: list[str], launcher: str, heir: str = "", depth: int = 0
) -> list[ConfigView]:
    """A config file read as NeMo-RL's `load_config` reads it: its `defaults:` files (paths
    relative to it, `nemo_rl/utils/config.py` `load_config_with_inheritance`) under it. Its keys
    are spelled with the file that launches it, a parent's with the file that inherits them."""
    loaded = load_config(path, token) if load_config is not None and depth <= _MAX_DEFAULTS else None
    if loaded is None:
        reasons.append(f"{path} (not readable here)" if depth == 0 else f"defaults: {path} (not read here)")
        return []
    tree: ConfigView = Inherited(token_tree(loaded), heir) if heir else Inherited(token_tree(loaded), launcher, "loaded by")
    defaults = tree.value("defaults")
    names = [defaults] if isinstance(defaults, str) else [d for d in defaults if isinstance(d, str)] if isinstance(defaults, list) else []
    parents: list[ConfigView] = []
    for name in names:
        parent = posixpath.normpath(posixpath.join(posixpath.dirname(path), name))
        parents += _config_layers(parent, token, load_config, reasons, launcher, heir or path, depth + 1)
    return [*parents, tree]


def adapt(view: ConfigView, anchor: Span, context: LaunchContext, forked: WorkerFork | None = None) -> Launch | None:
    """The launch of each NeMo-RL edition (`editions.build`), where `context` says it runs; with
    `forked`, the fork's worker in the tree decides for every edition (`nemo_rl_fork`)."""
    layout = layout_of(view)
    if layout is None:
        return None
    backend = view.value(*layout.generation, "backend")
    if backend is not None and backend != "vllm":
        return None
    if forked is not None:
        made = _launch(view, layout, anchor, REPLAY_BRANCH if forked.replay_branch else MAIN, context, forked)
        return build(EDITIONS, lambda _: made)  # the same code for every edition
    key = (REPLAY_BRANCH.name, view.spelling(*REPLAY)) if layout.replay and view.has(*REPLAY) else None
    return build(EDITIONS, lambda edition: _launch(view, layout, anchor, edition, context, None), key)


def _launch(
    view: ConfigView, layout: Layout, anchor: Span, edition: NemoRlEdition, context: LaunchContext, forked: WorkerFork | None
) -> Launch:
    owner = nemo_rl_fork.OWNER if forked is not None else EDITIONS.owner(edition)
    reasons = list(context.open_reasons)
    issues: list[ArgIssue] = []
    settings = copied_settings(view, layout.vllm_cfg, _TYPED)
    kwargs = view.value(*layout.vllm_kwargs, default={})
    spread: dict[str, Setting] = {}
    if isinstance(kwargs, dict):
        for key in kwargs:
            setting = view.setting(str(key), *layout.vllm_kwargs, str(key))
            if setting is not None:
                spread[str(key)] = setting
    elif kwargs is UNKNOWN:
        reasons.append(f"{'.'.join(layout.vllm_kwargs)} (not readable here)")
    settings.update(spread)
    if forked is not None:
        mode = view.setting("logprobs_mode", *layout.vllm_cfg, "logprobs_mode")
        configured = lambda key: view.setting(key, *layout.vllm_cfg, key)  # noqa: E731  (a key the fork's worker reads)
        exports = {} if context.env_open else context.env  # variables nobody can name may change what it exports
        issues += nemo_rl_fork.engine(forked, settings, spread, mode, anchor, configured, isinstance(kwargs, dict), exports)
    elif edition.logprobs_mode_in_call is not None:
        duplicate = settings.pop("logprobs_mode", None)
        if duplicate is not None:
            detail = "TypeError: dict() got multiple values for keyword argument 'logprobs_mode'"
            issues.append(ArgIssue("framework-rejected", duplicate.span, duplicate.spelling, "logprobs_mode", detail))
        mode = edition.logprobs_mode_in_call
        settings["logprobs_mode"] = Setting("logprobs_mode", mode, anchor, f"({owner} sets logprobs_mode={mode!r})", implied=True)
    else:
        mode = view.setting("logprobs_mode", *layout.vllm_cfg, "logprobs_mode")
        if mode is not None and mode.value is not None:
            settings["logprobs_mode"] = mode
    environment = dict(context.env)
    env_vars = view.value(*layout.vllm_cfg, "env_vars", default={})
    if isinstance(env_vars, dict):
        for name, value in env_vars.items():
            written = view.setting(str(name), *layout.vllm_cfg, "env_vars", str(name), keys=False)
            if written is not None:
                environment[str(name)] = Setting(
                    str(name),
                    value if value is UNKNOWN or value is None else str(value),
                    written.span,
                    written.spelling,
                    written.value_span,
                )
    if forked is not None:
        nemo_rl_fork.environment(forked, environment, anchor)
    replay = view.setting("return_sampling_mask", *REPLAY) if edition.sampling_mask_replay and layout.replay else None
    if replay is not None and replay.value is True:
        said = f"{replay.spelling} ({owner} sets %s)"
        mode = edition.replay_logprobs_mode
        settings["return_sampling_mask"] = Setting("return_sampling_mask", True, replay.span, replay.spelling, replay.value_span)
        settings["logprobs_mode"] = Setting("logprobs_mode", mode, replay.span, said % f"logprobs_mode={mode!r}")
        environment[RUNNER_ENV] = Setting(RUNNER_ENV, "1", replay.span, said % f"{RUNNER_ENV}=1", implied=True)
    model = view.setting("model", *layout.model)
    if model is not None and "model" not in settings:
        settings["model"] = model
    mask = settings.get("return_sampling_mask")
    request_settings: dict[str, Setting] = {}
    for key in ("temperature", "top_k", "top_p"):
        written = view.setting(key, *layout.generation, key)
        if written is not None:
            value = -1 if key == "top_k" and written.value is None else written.value
            request_settings[key] = Setting(key, value, written.span, written.spelling, written.value_span)
    forwarded = judged_without(context.forwarded, True, reasons)
    missing = "temperature" not in request_settings or "top_k" not in request_settings
    if forked is not None and forked.own_requests:  # the fork builds its requests its own way
        request_settings, missing = {}, True
    requests = (Request("sampling", view.span(*layout.generation) or (mask.span if mask else anchor), request_settings, missing),)
    return Launch(
        LaunchKind.FRAMEWORK,
        anchor,
        settings,
        environment,
        open_reasons=tuple(reasons),
        issues=tuple(issues),
        requests=requests,
        condition=context.condition,
        label=context.label,
        forwarded=forwarded,
        assumptions=nemo_rl_fork.resting_on(forked, settings) if forked is not None else (),
    )

"""SkyRL (NovaSky-AI/SkyRL, PyPI `skyrl` 0.3.0 and 0.4.0): the vLLM servers of
`skyrl.train.entrypoints.main_base` (and the entrypoints built on it) and of
`skyrl.train.entrypoints.serve`.

Source: skyrl 0.3.0 and 0.4.0 wheels. `skyrl/backends/skyrl_train/inference_servers/utils.py`
`build_vllm_cli_args` parses vLLM's defaults (`parser.parse_args(args=[])`), then `setattr`s on
the namespace: `tensor_parallel_size`, `pipeline_parallel_size`, `dtype` (from `model_dtype`),
`data_parallel_size`, `gpu_memory_utilization`, `enable_prefix_caching`, `enforce_eager`,
`max_num_batched_tokens`, `enable_expert_parallel = expert_parallel_size > 1`, `max_num_seqs`,
`enable_return_routed_experts`, `model` (from `trainer.policy.model.path`),
`generation_config="vllm"`, ...; `speculative_config` when set; and last
`for key, value in engine_kwargs.items(): setattr(args, key, value)` over
`generator.inference_engine.engine_init_kwargs`, so those win, under the names as written (a
kebab-case key is an attribute vLLM's `from_cli_args` never reads). Overrides are
`OmegaConf.from_cli` words (`skyrl/train/config/config.py` `from_cli_overrides`: values read as
YAML; a word with a leading `+` makes SkyRL refuse the launch, `ValueError("The '+' prefix for
adding new config fields is not supported: '<word>'. ...")`, reported when the word names a
replay setting, and left out). Requests (main_base): `generator.sampling_params` (defaults
`temperature: 1.0`, `top_k: -1`) and `generator.eval_sampling_params`: unset,
`SamplingParams(temperature=0.0, ...)` (0.3.0 `engine/config.py:850-853`, 0.4.0 `:1402-1405`); once
any of its keys is written, `build_nested_dataclass` builds `SamplingParams(**written)`, whose
own defaults apply (`temperature: 1.0`, `top_k: -1`).

Two editions (`EDITIONS`), chosen by the project's pin of `skyrl`:

- **0.3.0** (and GitHub main @ a956457, 2026-08-21, alike but for `offload_kv_for_weight_sync`
  in `enable_sleep_mode`): SkyRL never sets `logprobs_mode`.
  `generator.inference_engine.enable_return_sample_support_set` is no field of 0.3.0's
  `InferenceEngineConfig` (SkyRL refuses it: `Invalid fields`), so it maps to nothing.
- **0.4.0**: with `generator.inference_engine.enable_return_sample_support_set` true,
  `build_vllm_cli_args` sets `max_logprobs = generator.sampling_params.top_k` and
  `logprobs_mode = "processed_logprobs"` before `engine_init_kwargs` (`utils.py:225-229`); and
  `SkyRLTrainConfig.__post_init__` (`engine/config.py:1862-1890`), run by every entrypoint, refuses
  sample-support replay without the capture, then a capture whose sampling has `temperature <= 0`
  ("sample-support capture requires generator.sampling_params.temperature > 0"), `top_k <= 1`
  ("... top_k > 1"), `repetition_penalty != 1.0`. Its other changes (FP8 weight sync writes
  `quantization`, `load_format`, `hf_overrides.quantization_config`; `sharded_rdt` sets the Ray
  executor; LoRA's `enable_mixed_moe_lora_format`) set nothing a replay rule reads.

`skyrl.train.entrypoints.serve` (the same in both): `SkyRLTrainConfig.from_cli_overrides`,
`_validate_serve_cfg` (no `validate_cfg`, so no MTP drafting), then the same servers as
main_base, kept up for outside clients: SkyRL sends them no request of its own
(`InferenceOnlyEntrypoint.run` only waits), so no request is assumed.

A fork: when SkyRL's own `skyrl/backends/skyrl_train/inference_servers/utils.py` is in the
checked tree, the `overrides` its `build_vllm_cli_args` builds are read in place of the
edition's (`skyrl_fork`), and messages name "the forked SkyRL" with the file and line.

Not seen: `$VAR` values, custom entrypoints' generators, the `+` words' other refusals, a fork's
edited config dataclasses (`skyrl/train/config/config.py` defaults).
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any, Callable, Mapping

from ..command import judged_without
from ..launch_context import LaunchContext
from ..model import UNKNOWN, ArgIssue, Launch, LaunchKind, Request, Setting, Span
from ..records import record
from ..vllm.command_line import Token
from ..vllm.engine_fields import FIELDS
from ..vllm.unusable_masks import FORWARDED
from .default_spelling import WrittenDefault
from .editions import Edition, Editions, build
from .engine_keys import copied_settings
from .nearby import upward
from .refusals import names_replay, refusal, refused
from .skyrl_fork import OWNER, Fork, LaunchReading, fork
from .views import ConfigView, read_overrides

SUPPORT_SET, BEFORE = "0.4.0", "0.3.0"
EDITIONS = Editions(
    "SkyRL",
    "skyrl",
    "attributes",
    (
        Edition(SUPPORT_SET, releases=("0.4.0",)),
        Edition(BEFORE, releases=("0.3.0",), refs=("a9564572eb8e91076be43c1bd5e4615e3de17265",)),
    ),
)
SERVE = "skyrl.train.entrypoints.serve"
ENGINE = ("generator", "inference_engine")
MODEL_PATH = ("trainer", "policy", "model", "path")  # a command line that names it is complete without the script's `"$@"`
EVAL = ("generator", "eval_sampling_params")
_EVAL_INTERVAL, _EVAL_EVERY = ("trainer", "eval_interval"), 5  # `TrainerConfig.eval_interval` (0.3.0 `config/config.py:966`)
# The request fields `get_vllm_sampling_params` sets itself; `additional_kwargs` cannot replace them.
_SET_BY_SKYRL = (
    *("min_tokens", "skip_special_tokens", "include_stop_str_in_output", "max_tokens", "temperature"),
    *("top_p", "top_k", "min_p", "logprobs", "stop"),
)
_TYPED = {
    "tensor_parallel_size": "tensor_parallel_size",
    "pipeline_parallel_size": "pipeline_parallel_size",
    "data_parallel_size": "data_parallel_size",
    "model_dtype": "dtype",
    "gpu_memory_utilization": "gpu_memory_utilization",
    "enable_prefix_caching": "enable_prefix_caching",
    "enforce_eager": "enforce_eager",
    "max_num_batched_tokens": "max_num_batched_tokens",
    "max_num_seqs": "max_num_seqs",
    "enable_return_routed_experts": "enable_return_routed_experts",
    "speculative_config": "speculative_config",
}


# SkyRL's own entrypoints built on `main_base` at main @ a956457: `main()` reads
# `<Config>.from_cli_overrides(sys.argv[1:])`, runs `validate_cfg` and a `BasePPOExp` subclass
# (examples/train/**, examples/train_integrations/**, examples/train_scripts/**). True: the
# module defines its own `get_generator` (or `run`), so its requests are not built from
# `sampling_params`.
ENTRYPOINTS = {
    "examples.train.algorithms.custom_advantage_estimator.main_custom_adv_est": False,
    "examples.train.algorithms.custom_policy_loss.main_custom_policy_loss": False,
    "examples.train.algorithms.dapo.main_dapo": False,
    "examples.train.algorithms.dapo.main_dapo_fully_async": False,
    "examples.train.async.main_async": False,
    "examples.train.fully_async.main_fully_async": False,
    "examples.train.fully_async.main_fully_async_sim": False,
    "examples.train.geometry3k.geometry3k_entrypoint": False,
    "examples.train.llm_as_a_judge.main_llm_judge": False,
    "examples.train.mini_swe_agent.main_mini_swe": True,
    "examples.train.multiply.main_multiply": False,
    "examples.train.on_policy_distillation.main_on_policy_distill": False,
    "examples.train.rlm.main_rlm": True,
    "examples.train.tis_correction.main_tis_dapo": False,
    "examples.train.visgym.entrypoint": False,
    "examples.train_integrations.harbor.entrypoints.main_harbor": True,
    "examples.train_integrations.harbor.entrypoints.main_harbor_generate": True,
    "examples.train_integrations.openenv.entrypoints.main_openenv": False,
    "examples.train_integrations.openreward.entrypoints.main_openreward": False,
    "examples.train_integrations.verifiers.entrypoints.main_verifiers": True,
    "examples.train_scripts.full_context.main_full_ctx": False,
}
_IMPORTS_MAIN_BASE = re.compile(
    r"^\s*(?:from\s+skyrl\.train\.entrypoints\.main_base\s+import|import\s+skyrl\.train\.entrypoints\.main_base)\b", re.M
)
_READS_OVERRIDES = re.compile(r"\.from_cli_overrides\(")
# A generator or a run of its own (`serve.py` serves outside clients, `main_generate.py` only evaluates).
_OWN_GENERATOR = re.compile(r"^\s*def\s+(?:get_generator|run)\s*\(", re.M)
_OWN_CLIENT = re.compile(r"^\s*def\s+(?:_get_new_inference_client|get_inference_client)\s*\(", re.M)
_MODULE = re.compile(r"^[A-Za-z_]\w*(\.[A-Za-z_]\w*)*$")


@record(unsafe_hash=True)
class Entrypoint:
    """What a module run with `-m` is to SkyRL: a `main_base` entrypoint or not, and what of
    `main_base`'s it replaces."""

    own_generator: bool = False
    own_client: bool = False
    serves: bool = False  # `serve`: servers for outside clients, no request of SkyRL's, no `validate_cfg`


def entrypoint(module: str, anchor: Span, read_text: Callable[[str], str | None] | None) -> Entrypoint | None:
    """SkyRL's `serve`; else the module's own code when the tree holds it (read, never run: it
    imports `main_base` and reads `from_cli_overrides`), else SkyRL's own list; None: not such an
    entrypoint."""
    if module == SERVE:
        return Entrypoint(serves=True)
    text = _module_text(module, anchor.path, read_text) if read_text is not None else None
    if text is None:
        own = ENTRYPOINTS.get(module)
        return None if own is None else Entrypoint(own_generator=own)
    if not (_IMPORTS_MAIN_BASE.search(text) and _READS_OVERRIDES.search(text)):
        return None
    return Entrypoint(_OWN_GENERATOR.search(text) is not None, _OWN_CLIENT.search(text) is not None)


def _module_text(module: str, launching: str, read_text: Callable[[str], str | None]) -> str | None:
    """`a.b.c` as `a/b/c.py` near the launching file (SkyRL's scripts run from the repository root)."""
    return upward(module.replace(".", "/") + ".py", launching, read_text) if _MODULE.match(module) else None


def command_launch(context: LaunchContext, span: Span, tokens: list[Token], module: bool = False) -> Launch | None:
    """`python -m skyrl.train.entrypoints.main_base key=value ...` (behind `uv run`), or with
    `module` another module (the first token) that may be an entrypoint built on `main_base`."""
    reasons = list(context.open_reasons)
    label = context.label or "main_base"
    found = Entrypoint()
    if module:
        name = tokens[0].text or ""
        found = entrypoint(name, span, context.read_text)  # type: ignore[assignment]
        if found is None:
            return None
        tokens, label = tokens[1:], f"{label} {name}".strip()
        if found.own_client:
            reasons.append(f"{name} (its own inference client)")
    overrides = read_overrides(tokens)
    reasons += overrides.open_reasons
    forwarded = judged_without(overrides.forwarded, overrides.has(*MODEL_PATH), reasons)
    context = replace(context, label=f"skyrl: {label}", forwarded=forwarded, open_reasons=tuple(reasons))
    return adapt(overrides, span, context, found, _plus_refusal(tokens), fork(span.path, context.read_text))


def _plus_refusal(tokens: list[Token]) -> ArgIssue | None:
    """`from_cli_overrides` refuses the first word with a leading `+` (both editions): reported
    when that word names a replay setting; None too when a word before it cannot be read."""
    for token in tokens:
        if token.forwarded:
            continue
        if not token.known:
            return None
        text = str(token.text)
        if text.startswith("+"):
            if not names_replay(text):
                return None
            message = (
                f"The '+' prefix for adding new config fields is not supported: '{text}'. "
                "To add custom config fields, subclass the relevant config dataclass."
            )
            return refusal(token.span, token.raw, text.lstrip("+").split("=", 1)[0], message)
    return None


def adapt(
    view: ConfigView, anchor: Span, context: LaunchContext, entry: Entrypoint, refusal: ArgIssue | None = None, forked: Fork | None = None
) -> Launch | None:
    """The launch of a SkyRL configuration under each edition (`editions.build`), where `context`
    says it runs and `entry` starts it; `refusal`: the words' own, which every edition makes
    (`_plus_refusal`); `forked`: the engine arguments of a fork in the tree (`skyrl_fork`), in
    place of the edition's."""
    if view.value(*ENGINE, "backend", default="vllm") != "vllm":
        return None

    def make(edition: Edition) -> Launch:
        launch = _launch(view, anchor, edition, context, entry, forked)
        return launch if refusal is None else refused(launch, refusal)

    return build(EDITIONS, make)


def _launch(view: ConfigView, anchor: Span, edition: Edition, context: LaunchContext, entry: Entrypoint, forked: Fork | None) -> Launch:
    owner = OWNER if forked is not None else EDITIONS.owner(edition)
    sampling = forked.sampling_defaults(_SAMPLING_DEFAULTS) if forked is not None else dict(_SAMPLING_DEFAULTS)
    reasons = list(context.open_reasons)
    issues: list[ArgIssue] = []

    def fork_passes(key: str, name: str) -> bool:  # the fork passes its own value, or none
        return forked is not None and name != "speculative_config" and forked.typed(key, name) != "config"

    typed = {**_TYPED, **forked.passed(_TYPED)} if forked is not None else _TYPED
    reading = LaunchReading(
        lambda key, default: view.value(*ENGINE, key, default=default),
        lambda key: view.setting(key, *ENGINE, key),
        {} if context.env_open else context.env,  # variables nobody can name may change what it exports
    )
    settings = copied_settings(view, ENGINE, typed, fork_passes)
    if forked is not None:
        settings = {**forked.field_settings(typed, lambda key: view.has(*ENGINE, key), anchor), **settings}
    model = view.setting("model", "trainer", "policy", "model", "path")
    if model is not None:
        settings["model"] = model
    settings["generation_config"] = Setting("generation_config", "vllm", anchor, f"({owner} sets generation_config='vllm')")
    mtp = None if entry.serves else _mtp_speculative_config(view, settings.get("speculative_config"), owner)
    if mtp is not None:
        settings["speculative_config"] = mtp
    if forked is not None:
        own, more = forked.settings(anchor, reading)
        settings.update(own)
        reasons += more
    capture_refused = None
    if edition.name == SUPPORT_SET:
        settings.update(_sample_support_settings(view, owner, sampling["top_k"]))
        capture_refused = _sample_support_refusal(view, bool(reasons), sampling)
    engine = view.value(*ENGINE, "engine_init_kwargs", default={})
    if engine == {} and forked is not None:
        settings.update(forked.engine_settings(anchor))  # the fork's default, applied last
    if isinstance(engine, dict):
        for key in engine:
            if "-" in str(key):
                # setattr under this name: vLLM's from_cli_args reads only its dataclass fields
                ignored = view.setting(str(key), *ENGINE, "engine_init_kwargs", str(key))
                name = str(key).replace("-", "_")
                if ignored is not None and name in FIELDS:
                    detail = f"{owner.split()[0]} sets attributes by name; vLLM reads `{name}`"
                    issues.append(ArgIssue("ignored-key", ignored.span, ignored.spelling, name, detail))
                continue
            setting = view.setting(str(key), *ENGINE, "engine_init_kwargs", str(key))
            if setting is not None:
                settings[str(key)] = setting
    elif engine is UNKNOWN or engine is not None:
        reasons.append("generator.inference_engine.engine_init_kwargs (not readable here)")
    if forked is not None:
        last, more = forked.last_settings(anchor, reading)
        settings.update(last)
        reasons += more
    forwarded = judged_without(context.forwarded, True, reasons)
    mask = settings.get("return_sampling_mask")
    # Unset, eval requests are greedy; once a key is written, SamplingParams' own defaults apply.
    unset = forked.evaluation(sampling) if forked is not None else {**sampling, "temperature": 0.0}
    evaluation = dict(sampling) if isinstance(view.value(*EVAL), dict) else unset
    places = forked.sampling_places(sampling) if forked is not None else {}
    eval_places = places if isinstance(view.value(*EVAL), dict) or forked is None else forked.evaluation_places(places)
    evaluated = (EVAL,) if _evaluates(view) else ()
    unseen = bool(reasons) or entry.own_generator  # a generator of the entrypoint's own builds the requests
    requests = (
        ()
        if entry.serves
        else (
            _request(view, _SAMPLING, sampling, mask, anchor, unseen, owner, places),
            *(_request(view, prefix, evaluation, mask, anchor, unseen, owner, eval_places) for prefix in evaluated),
            *filter(None, (_forwarded(view, prefix) for prefix in (_SAMPLING, *evaluated))),
        )
    )
    launch = Launch(
        LaunchKind.FRAMEWORK,
        anchor,
        settings,
        dict(context.env),
        open_reasons=tuple(reasons),
        issues=tuple(issues),
        requests=requests,
        condition=context.condition,
        label=context.label,
        forwarded=forwarded,
    )
    return launch if capture_refused is None else refused(launch, capture_refused)


def _sample_support_settings(view: ConfigView, owner: str, default_top_k: Any = -1) -> dict[str, Setting]:
    """0.4.0: `enable_return_sample_support_set` true sets `max_logprobs` (the rollout's `top_k`)
    and `logprobs_mode="processed_logprobs"`; `engine_init_kwargs`, set after them, still win."""
    support = view.setting("logprobs_mode", *ENGINE, "enable_return_sample_support_set")
    if support is None or support.value is False or support.value is None:
        return {}
    known = support.value is True
    top_k = view.value("generator", "sampling_params", "top_k", default=default_top_k)
    said = f"{support.spelling} ({owner} sets logprobs_mode='processed_logprobs')"
    return {
        "logprobs_mode": Setting("logprobs_mode", "processed_logprobs" if known else UNKNOWN, support.span, said, implied=True),
        "max_logprobs": Setting("max_logprobs", top_k if known else UNKNOWN, support.span, support.spelling, implied=True),
    }


_SAMPLING = ("generator", "sampling_params")
_SAMPLING_DEFAULTS = {"temperature": 1.0, "top_k": -1}  # `SamplingParams`' (0.4.0 `engine/config.py:1088`, `:1094`)
# The first checks of a capture in `SkyRLTrainConfig.__post_init__` (0.4.0 `engine/config.py:1879-1884`),
# in order: (path, its default, whether SkyRL refuses the value, its message).
_SUPPORT_CHECKS: tuple[tuple[tuple[str, ...], Any, Callable[[Any], bool], str], ...] = (
    (
        (*_SAMPLING, "temperature"),
        1.0,
        lambda value: value <= 0,
        "sample-support capture requires generator.sampling_params.temperature > 0",
    ),
    ((*_SAMPLING, "top_k"), -1, lambda value: value <= 1, "sample-support capture requires generator.sampling_params.top_k > 1"),
)


def _sample_support_refusal(view: ConfigView, open_ended: bool, defaults: dict[str, Any] | None = None) -> ArgIssue | None:
    """0.4.0's refusal of a sample-support capture whose rollout sampling has `temperature <= 0`
    or `top_k <= 1` (both name replay settings), when every value before it is known; sample-
    support replay (`trainer.algorithm.enable_sample_support_replay`) written makes its own checks
    come first, which are not followed here."""
    support = view.value(*ENGINE, "enable_return_sample_support_set", default=False)
    replay = view.value("trainer", "algorithm", "enable_sample_support_replay", default=False)
    if support is not True or replay is not False:
        return None
    for path, default, refuses, message in _SUPPORT_CHECKS:
        default = (defaults or {}).get(path[-1], default)
        value = view.value(*path, default=UNKNOWN if open_ended else default)
        if not isinstance(value, (int, float)) or isinstance(value, bool):
            return None
        if refuses(value):
            where = view.setting(path[-1], *path) or view.setting("logprobs_mode", *ENGINE, "enable_return_sample_support_set")
            assert where is not None
            return refusal(where.span, where.spelling, path[-1], message)
    return None


def _mtp_speculative_config(view: ConfigView, written: Setting | None, owner: str) -> Setting | None:
    """`trainer.mtp.enabled=true`: `validate_cfg` -> `_apply_mtp_config` (0.3.0
    `skyrl/train/utils/utils.py:221-258`, main `:233-270`) sets `speculative_config = {"method":
    "mtp", "num_speculative_tokens": trainer.mtp.num_speculative_tokens}` (default 1) when
    `generator.inference_engine.speculative_config` is None, unless `SKYRL_DISABLE_SPEC=1`;
    `engine_init_kwargs.speculative_config` still wins (set last)."""
    enabled = view.setting("speculative_config", "trainer", "mtp", "enabled")
    if enabled is None or enabled.value is False or enabled.value is None:
        return None
    if written is not None and written.value is not None:
        return None
    depth = view.value("trainer", "mtp", "num_speculative_tokens", default=1)
    value = {"method": "mtp", "num_speculative_tokens": depth} if enabled.value is True else UNKNOWN
    said = f"{enabled.spelling} ({owner} drafts with MTP)"
    return Setting("speculative_config", value, enabled.span, said, enabled.value_span, implied=True)


def _request(
    view: ConfigView,
    prefix: tuple[str, ...],
    defaults: dict[str, Any],
    mask: Setting | None,
    anchor: Span,
    open_ended: bool,
    owner: str,
    places: Mapping[str, WrittenDefault],
) -> Request:
    """One kind of request; SkyRL's defaults stand in for keys not written (a fork's, with the
    lines of its config that write them: `places`), unless something we cannot see may write them."""
    found, missing = view.request_settings(prefix, defaults, mask.span if mask is not None else anchor, open_ended, owner, places)
    return Request("sampling", view.span(*prefix) or anchor, found, missing)


def _evaluates(view: ConfigView) -> bool:
    """Whether SkyRL sends eval requests: only with `trainer.eval_interval > 0` ("-1 to disable
    evaluation"; default 5), before training (`trainer.py:299`) and every interval (`:505`;
    `fully_async_trainer.py:460`, `:576`), and `main_base.get_eval_dataset` builds no eval data
    otherwise (`entrypoints/main_base.py:96`; skyrl 0.3.0, alike at main @ a956457). A value not
    read here may turn it on."""
    interval = view.value(*_EVAL_INTERVAL, default=_EVAL_EVERY)
    return not (isinstance(interval, int) and not isinstance(interval, bool) and interval <= 0)


def _forwarded(view: ConfigView, prefix: tuple[str, ...]) -> Request | None:
    """The keys of `additional_kwargs` SkyRL sends to vLLM as written: `get_vllm_sampling_params`
    (0.3.0 and 0.4.0 `inference_servers/engine_utils.py:55-82`) adds each one it does not set
    itself to the request's sampling parameters."""
    path = (*prefix, "additional_kwargs")
    settings = {name: s for name, s in view.sub_settings(path, view.value(*path)).items() if name not in _SET_BY_SKYRL}
    return Request(FORWARDED, view.span(*path) or view.span(*prefix), settings, open_ended=True) if settings else None

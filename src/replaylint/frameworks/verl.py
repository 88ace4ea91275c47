"""verl (volcengine/verl, PyPI `verl`): the vLLM server of the async rollout.

Editions (`EDITIONS`; docs/frameworks-research.md §3, "Editions"): 0.9.1; 0.9.0, which renders a
`False` value as no word at all (0.9.1 writes `--no-<key>` for vLLM's optional switches); 0.8.0
(also 0.7.1 and the GitHub main of January 2026, b178a3c), where MTP *replaces* the user's
`engine_kwargs.vllm.speculative_config` with `{method, num_speculative_tokens}`
(`vllm_async_server.py` 0.8.0:297-302) instead of merging it (0.9.0 and 0.9.1
`build_mtp_speculative_config`). Their replay-relevant defaults are otherwise the same.

Source: verl 0.9.1. `verl/workers/rollout/vllm_rollout/vllm_async_server.py`
`vLLMHttpServer.launch_server` builds a dict of engine arguments from
`actor_rollout_ref.rollout` (`"logprobs_mode": self.config.logprobs_mode`,
`"tensor_parallel_size": self.config.tensor_model_parallel_size`, `"enforce_eager"`,
`"override_generation_config": json.dumps({temperature, top_k, top_p, ...})`,
`"compilation_config"` with `cudagraph_mode` defaulting to `FULL_AND_PIECEWISE`, ...),
then `**engine_kwargs` (`rollout.engine_kwargs.vllm`, `None` values dropped) last, so they win;
with `actor_rollout_ref.model.mtp.enable` and `enable_rollout`, `speculative_config` becomes
`build_mtp_speculative_config(mtp.method, mtp.num_speculative_tokens,
engine_kwargs.speculative_config)` (`utils.py`). `utils.py` `build_cli_args_from_config` turns
the dict into command-line words (`None` skipped, `True` -> `--key`, `False` -> `--no-key` for
optional booleans only, a list -> `--key a b`, a dict -> `--key <json>`, anything else ->
`--key str(v)`), which vLLM's own `FlexibleArgumentParser` parses: so the words are made here
and `vllm.command_line` judges them (a Hydra-quoted `'True'` becomes a stray word after the switch).

Defaults (`verl/trainer/config/rollout/rollout.yaml`, `verl/workers/config/rollout.py`):
`logprobs_mode: processed_logprobs` (`null` drops it), `tensor_model_parallel_size: 2`,
`top_k: -1`, `temperature: 1.0`, `val_kwargs.temperature: 0`, `val_kwargs.top_k: -1`;
`mtp.method: mtp`, `mtp.num_speculative_tokens: 1` (`_generated_ppo_trainer.yaml`).
Requests (`verl/experimental/agent_loop/agent_loop.py`): rollout requests carry `temperature`,
`top_p`, `top_k` of the rollout config, validation requests those of `val_kwargs`; validation
runs unless `trainer.val_before_train=False` and `trainer.test_freq <= 0`
(`verl/trainer/ppo/ray_trainer.py`). With the mask on, verl's defaults fail every request
(Q2: `top_k=-1`; validation also Q1: `temperature=0`): those are reported at the key when
written, else at the mask, naming the default.

Hydra applies the command line's overrides to the composed configuration in struct mode first:
a key it does not have, written without `+`, or `+` on a key it has, stops verl before anything
starts (`hydra_struct`; RPL204 in Hydra's words when the word names a replay setting).

Only `rollout.name: vllm` launches vLLM. A config file of the tree named with `--config-path` and
`--config-name` is composed as Hydra does (`verl_config_file`); not seen: other Hydra config files,
other `ppo_*_trainer` defaults, `$VAR` values.

A fork: when verl's own `verl/trainer/config/rollout/rollout.yaml` is in the checked tree (found
from the launching script's folder upward, as verl's scripts run from its root), its defaults
are verl's for the command lines there, not the edition's: the typed keys above, the request
keys and `engine_kwargs.vllm` (under the command line's own, as Hydra merges them). So is the
`args` dict of its own `vllm_async_server.py` (`verl_fork`): a key it writes with a literal, one
it no longer passes. The fork's rollout.yaml is composed at `actor_rollout_ref.rollout` for Hydra too: a
key it adds is one an override may set without `+`. Messages name "the forked verl" (and the server's file and line), and the
launch's label the file.
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any, Callable, Sequence

from ..command import judged_without
from ..launch_context import LaunchContext
from ..model import UNKNOWN, Launch, LaunchKind, Request, Setting, Span
from ..records import record
from ..vllm import command_line
from ..vllm.command_line import Token
from ..vllm.engine_fields import FIELDS
from ..vllm.releases import NEWEST
from .editions import Edition, Editions, build
from .hydra_struct import HydraRefusal, PackagedConfigKeys, first_refusal, packaged_config
from .refusals import names_replay, refusal, refused
from .verl_config_file import composed, names_config, package_root, without_config_options
from .verl_fork import OWNER, Fork, fork, forked_label
from .views import ConfigView, read_hydra_overrides

ROLLOUT = ("actor_rollout_ref", "rollout")
MODEL_PATH = ("actor_rollout_ref", "model", "path")  # a command line that names it is complete without the script's `"$@"`
MTP = ("actor_rollout_ref", "model", "mtp")
# (verl key under rollout, vLLM argument, verl default or None: only when written), as
# `launch_server`'s `args` dict copies them; the same in every edition read (`rollout.yaml`).
_TYPED = (
    ("dtype", "dtype", None),
    ("load_format", "load_format", None),
    ("max_model_len", "max_model_len", None),
    ("max_num_seqs", "max_num_seqs", None),
    ("enable_chunked_prefill", "enable_chunked_prefill", None),
    ("max_num_batched_tokens", "max_num_batched_tokens", None),
    ("enable_prefix_caching", "enable_prefix_caching", None),
    ("logprobs_mode", "logprobs_mode", "processed_logprobs"),
    ("enforce_eager", "enforce_eager", None),
    ("gpu_memory_utilization", "gpu_memory_utilization", None),
    ("tensor_model_parallel_size", "tensor_parallel_size", 2),
    ("scheduling_policy", "scheduling_policy", None),
)


@record(unsafe_hash=True, kw_only=True)
class VerlEdition(Edition):
    """What one verl edition's async rollout server does (docs/frameworks-research.md §10).

    `mtp_merges`: MTP's `{method, num_speculative_tokens}` is merged with the user's
    `engine_kwargs.vllm.speculative_config` (`build_mtp_speculative_config`), else put in its
    place; `false_as_no_flag`: `build_cli_args_from_config` writes `--no-<key>` for a `False`
    value of vLLM's optional switches, else skips every `False`. The defaults below are alike in
    every edition read: `typed` (rollout keys the `args` dict copies, with verl's defaults), the
    rollout and validation requests' sampling defaults, `compilation_config`'s `cudagraph_mode`,
    the executor backend and MTP's own defaults. `hydra_keys`: its packaged configurations' keys,
    against which Hydra refuses command-line overrides (`hydra_struct`)."""

    mtp_merges: bool
    false_as_no_flag: bool
    hydra_keys: PackagedConfigKeys
    typed: tuple[tuple[str, str, Any], ...] = _TYPED
    rollout_request_defaults: tuple[tuple[str, Any], ...] = (("temperature", 1.0), ("top_k", -1))
    validation_request_defaults: tuple[tuple[str, Any], ...] = (("temperature", 0), ("top_k", -1))
    cudagraph_mode: str = "FULL_AND_PIECEWISE"
    executor_backend: str = "mp"
    mtp_method: str = "mtp"
    mtp_speculative_tokens: int = 1


EDITIONS = Editions(
    "verl",
    "verl",
    "words",
    (
        VerlEdition(
            "0.9.1",
            releases=("0.9.1",),
            source="verl 0.9.1 vllm_async_server.py:377-382, vllm_rollout/utils.py:458, :506, :522-537",
            mtp_merges=True,
            false_as_no_flag=True,
            hydra_keys=PackagedConfigKeys("0.9.1"),
        ),
        VerlEdition(
            "0.9.0",
            releases=("0.9.0",),
            source="verl 0.9.0 vllm_async_server.py:330-335, vllm_rollout/utils.py:476-491",
            mtp_merges=True,
            false_as_no_flag=False,
            hydra_keys=PackagedConfigKeys("0.9.0"),
        ),
        VerlEdition(
            "0.8.0",
            releases=("0.7.1", "0.8.0"),
            refs=("b178a3cd56f58b2d502255daba591e92833930a7",),
            source="verl 0.8.0 vllm_async_server.py:277, :297-302; 0.7.1 :346-352; b178a3c :288, :300-306",
            mtp_merges=False,
            false_as_no_flag=False,
            hydra_keys=PackagedConfigKeys("0.8.0"),
        ),
    ),
)
_HYDRA_CONFIG_OPTIONS = ("--config-name", "--config-path", "--config-dir", "-cn", "-cp", "-cd")


def yaml_launches(
    view: ConfigView, path: str, read_text: Callable[[str], str | None] | None = None, read_view: object = None
) -> list[Launch] | None:
    """A verl trainer config (a top-level `actor_rollout_ref`; None: not one): its rollout's engine,
    with the defaults of a fork in the tree when there is one."""
    if not view.has(ROLLOUT[0]):
        return None
    anchor = view.span(*ROLLOUT)
    forked = fork(path, read_text)
    label = forked_label(f"verl: {path}", forked)
    context = LaunchContext(LaunchKind.FRAMEWORK, label=label)
    launch = adapt(view, view.key_span(*ROLLOUT) or anchor, context, forked=forked) if anchor is not None else None
    return [launch] if launch is not None else []


def command_launch(context: LaunchContext, span: Span, tokens: list[Token]) -> Launch | None:
    """`python -m verl.trainer.main_ppo key=value ...`."""
    own_config = names_config(tokens) and packaged_config(tokens)[0] is None
    overrides = read_hydra_overrides(without_config_options(tokens) if own_config else tokens)
    reasons = [*context.open_reasons, *overrides.open_reasons]
    forked = fork(span.path, context.read_text)
    view: ConfigView = overrides
    if own_config:
        root = package_root(forked.path if forked is not None else None)
        config = composed(tokens, span.path, span.start, overrides, context.load_config, context.read_text, root)
        view = config.view or overrides
        reasons += config.reasons
    else:
        for token in overrides.others:
            if token.text is not None and token.text.split("=", 1)[0] in _HYDRA_CONFIG_OPTIONS:
                reasons.append(f"{token.raw} (a Hydra config not read here)")
    forwarded = judged_without(overrides.forwarded, view.has(*MODEL_PATH), reasons)
    label = forked_label(f"verl: {context.label or 'main_ppo'}", forked)
    context = replace(context, open_reasons=tuple(reasons), label=label, forwarded=forwarded)
    return adapt(view, span, context, words=tokens, forked=forked)


class _Args:
    """verl's `args` dict: keys in insertion order, a later write keeps the first place."""

    def __init__(self, anchor: Span, owner: str, false_as_no_flag: bool) -> None:
        self.anchor = anchor
        self.owner = owner
        self.false_as_no_flag = false_as_no_flag
        self.items: dict[str, tuple[Any, Span, str, dict[str, Setting]]] = {}

    def put(self, key: str, value: Any, span: Span, raw: str, keys: dict[str, Setting] | None = None) -> None:
        self.items[key] = (value, span, raw, keys or {})

    def default(self, key: str, value: Any, what: str, span: Span | None = None, keys: dict[str, Setting] | None = None) -> None:
        self.items[key] = (value, span or self.anchor, f"({what})", keys or {})

    def tokens(self) -> list[Token]:
        """`build_cli_args_from_config`."""
        words: list[Token] = []
        for key, (value, span, raw, keys) in self.items.items():
            if value is None:
                continue
            field = FIELDS.get(key.replace("-", "_"))
            if value is UNKNOWN:
                words += [Token("--" + key, span, raw), Token(None, span, "")]
            elif isinstance(value, bool):
                if value:
                    words.append(Token("--" + key, span, raw))
                elif self.false_as_no_flag and field is not None and field.kind == "bool" and field.default in (None, True):
                    words.append(Token("--no-" + key, span, raw))
            elif isinstance(value, list):
                if value:
                    words.append(Token("--" + key, span, raw))
                    words += [Token(str(item), span, "") for item in value]
            elif isinstance(value, dict):
                text = json.dumps(value, default=lambda _: "${...}")
                words += [Token("--" + key, span, raw), Token(text, span, "", value=value, keys=keys)]
            else:
                # A string after a switch (a Hydra-quoted 'True') is a stray word: it quotes the user.
                stray = field is not None and field.kind == "bool"
                words += [Token("--" + key, span, raw), Token(str(value), span, raw if stray else "")]
        return words


def adapt(view: ConfigView, anchor: Span, context: LaunchContext, words: Sequence[Token] = (), forked: Fork | None = None) -> Launch | None:
    """The launch of each verl edition (`editions.build`), where `context` says it runs. `words`:
    the command line's overrides, which Hydra may refuse before verl starts (`hydra_struct`);
    `forked`: the defaults of a fork in the tree, in place of the edition's."""
    starts_vllm = view.value(*ROLLOUT, "name") == "vllm"  # else sglang, another engine, or a name we cannot see
    config, overrides = packaged_config(words) if words else (None, [])
    added = {ROLLOUT: forked.rollout} if forked is not None else {}  # the fork's rollout.yaml, composed there
    refusals = {edition: first_refusal(overrides, edition.hydra_keys, config, added) for edition in EDITIONS.editions} if config else {}
    if not starts_vllm and not any(refusals.values()):
        return None

    def launch(edition: VerlEdition) -> Launch:
        if not starts_vllm:
            made = Launch(LaunchKind.FRAMEWORK, anchor, {}, {}, label=context.label, condition=context.condition)
        else:
            made = _launch(view, anchor, edition, context, forked)
        return _hydra_refused(made, refusals.get(edition))

    return build(EDITIONS, launch)


def _hydra_refused(launch: Launch, found: HydraRefusal | None) -> Launch:
    """The launch as verl leaves it when Hydra refuses an override: RPL204's issue when the word
    names a replay setting, else nothing at all (verl stops for a reason that is not replay's)."""
    if found is None:
        return launch
    if not names_replay(found.message):
        return replace(launch, settings={}, env={}, requests=(), issues=())
    name = found.key.rsplit(".", 1)[-1]
    return refused(launch, refusal(found.token.span, found.token.raw, name, found.message))


def _launch(view: ConfigView, anchor: Span, edition: VerlEdition, context: LaunchContext, forked: Fork | None) -> Launch:
    open_reasons = list(context.open_reasons)
    owner = OWNER if forked is not None else EDITIONS.owner(edition)
    args = _Args(anchor, owner, edition.false_as_no_flag)
    engine = view.value(*ROLLOUT, "engine_kwargs", "vllm", default={})
    engine = {k: v for k, v in engine.items() if v is not None} if isinstance(engine, dict) else {}
    own = forked.own_typed([name for _, name, _ in edition.typed], engine) if forked is not None else []
    typed = (*edition.typed, *own)
    for key, name, default in typed:
        if forked is not None and forked.typed(key, name) != "config":
            continue  # the fork's server passes its own value, or none
        default = forked.default(key, default) if forked is not None else default
        if view.has(*ROLLOUT, key):
            args.put(name, view.value(*ROLLOUT, key), view.span(*ROLLOUT, key) or anchor, view.spelling(*ROLLOUT, key))
        elif default is not None:
            args.default(
                name,
                default,
                f"{owner}'s default {'.'.join(ROLLOUT)}.{key}={default}",
                forked.default_span(anchor, key) if forked else None,
            )
    args.default("distributed_executor_backend", edition.executor_backend, f"{owner} sets")
    cudagraph_mode = edition.cudagraph_mode
    compilation: dict[str, Any] = {"cudagraph_mode": cudagraph_mode}
    engine_defaults = forked.engine_defaults() if forked is not None else {}
    for key, value in engine_defaults.items():  # under the command line's
        if key not in engine:
            args.default(
                key,
                value,
                f"{owner}'s default {'.'.join(ROLLOUT)}.engine_kwargs.vllm.{key}={value}",
                forked.default_span(anchor, "engine_kwargs", "vllm", key),
            )  # type: ignore[union-attr]
    typed_keys = {name: key for key, name, _ in typed}
    rollout_value = lambda key, default: view.value(*ROLLOUT, key, default=default)  # noqa: E731
    exported = {} if context.env_open else context.env  # variables nobody can name may change what it exports
    server, reasons = forked.server_args(typed_keys, rollout_value, exported) if forked else ([], [])
    passed, more = forked.passed_args(typed_keys, rollout_value) if forked else ([], [])
    open_reasons += reasons + more
    for written, what in (*server, *passed):  # above `**engine_kwargs`, or its `setdefault`s: under the user's keys
        if not written.late and written.key not in engine and written.key not in engine_defaults:
            args.default(written.key, written.value, what, forked.span(written, anchor), forked.keys(written, anchor))  # type: ignore[union-attr]
    user_compilation = engine.pop("compilation_config", None)
    if isinstance(user_compilation, str):
        try:
            user_compilation = json.loads(user_compilation)
        except ValueError:
            user_compilation = UNKNOWN
    if user_compilation is UNKNOWN:
        compilation_value: Any = UNKNOWN
    else:
        compilation_value = {
            **(user_compilation or {}),
            "cudagraph_mode": (user_compilation or {}).get("cudagraph_mode", cudagraph_mode),
        }
        if (engine.get("decode_context_parallel_size") or 1) not in (1, UNKNOWN) and compilation_value["cudagraph_mode"] == cudagraph_mode:
            compilation_value["cudagraph_mode"] = "PIECEWISE"
    path = (*ROLLOUT, "engine_kwargs", "vllm", "compilation_config")
    if user_compilation is not None and view.span(*path) is not None:
        args.put(
            "compilation_config", compilation_value, view.span(*path), view.spelling(*path), view.sub_settings(path, compilation_value)
        )  # type: ignore[arg-type]
    else:
        args.default("compilation_config", compilation, f"{owner}'s default cudagraph_mode {cudagraph_mode}")
    for key, value in engine.items():
        path = (*ROLLOUT, "engine_kwargs", "vllm", key)
        args.put(key, value, view.span(*path) or anchor, view.spelling(*path), view.sub_settings(path, value))
    for written, what in (*passed, *server):  # written into `engine_kwargs`, or after it: over the command line's
        if written.late:
            args.default(written.key, written.value, what, forked.span(written, anchor), forked.keys(written, anchor))  # type: ignore[union-attr]
    for key in forked.removed() if forked is not None else ():
        args.items.pop(key, None)
    _mtp(view, args, edition)
    parsed = command_line.parse(args.tokens(), NEWEST, None, "api_server")  # the model is not among the words
    settings = parsed.settings
    open_ended = bool(open_reasons or parsed.open_reasons)
    requests = _requests(view, edition, settings.get("return_sampling_mask"), anchor, open_ended, owner, forked)
    reasons = open_reasons + parsed.open_reasons
    forwarded = judged_without(context.forwarded, True, reasons)
    return Launch(
        LaunchKind.FRAMEWORK,
        anchor,
        settings,
        forked.environment(context.env) if forked is not None else dict(context.env),
        open_reasons=tuple(reasons),
        version_hint=context.version_hint,
        issues=tuple(parsed.issues),
        requests=requests,
        condition=context.condition,
        label=context.label,
        forwarded=forwarded,
    )


def _mtp(view: ConfigView, args: _Args, edition: VerlEdition) -> None:
    """MTP's `speculative_config`: merged with the user's or in its place, as `edition` does."""
    if view.value(*MTP, "enable") is not True or view.value(*MTP, "enable_rollout") is not True:
        return
    method = view.value(*MTP, "method", default=edition.mtp_method)
    tokens = view.value(*MTP, "num_speculative_tokens", default=edition.mtp_speculative_tokens)
    user = args.items.get("speculative_config")
    if not edition.mtp_merges:
        span = view.span(*MTP, "enable_rollout") or args.anchor
        spelling = f"{view.spelling(*MTP, 'enable_rollout')} ({args.owner} replaces speculative_config with MTP's)"
        args.put("speculative_config", {"method": method, "num_speculative_tokens": tokens}, span, spelling)
        return
    user_value = user[0] if user is not None else {}
    if isinstance(user_value, str):
        try:
            user_value = json.loads(user_value)
        except ValueError:
            user_value = UNKNOWN
    if not isinstance(user_value, dict):
        value: Any = UNKNOWN
    else:
        value = {"method": method, "num_speculative_tokens": tokens, **{k: v for k, v in user_value.items() if v is not None}}
    span = view.span(*MTP, "enable_rollout") or args.anchor
    keys = dict(user[3]) if user is not None else {}
    for key in ("method", "num_speculative_tokens"):
        if view.span(*MTP, key) is not None:
            keys[key] = Setting(key, value.get(key) if isinstance(value, dict) else UNKNOWN, view.span(*MTP, key), view.spelling(*MTP, key))  # type: ignore[arg-type]
    if user is not None:
        span = user[1]
    args.put("speculative_config", value, span, user[2] if user is not None else view.spelling(*MTP, "enable_rollout"), keys)


def _requests(
    view: ConfigView, edition: VerlEdition, mask: Setting | None, anchor: Span, open_ended: bool, owner: str, forked: Fork | None = None
) -> tuple[Request, ...]:
    """Rollout and validation requests; verl's defaults (a fork's) stand in for keys not written, unless
    something we cannot see (an unknown `$EXTRA_ARGS`, or a wrapper's `"$@"`) may write them."""
    where = mask.span if mask is not None else anchor

    def settings(prefix: tuple[str, ...], defaults: dict[str, Any]) -> tuple[dict[str, Setting], bool]:
        under = prefix[len(ROLLOUT) :]
        places = forked.request_places(defaults, *under) if forked is not None else None
        defaults = forked.requests(defaults, *under) if forked is not None else defaults
        found, missing = view.request_settings(prefix, defaults, where, open_ended, owner, places)
        return (forked.request_settings(found, where) if forked is not None else found), missing

    train, train_missing = settings(ROLLOUT, dict(edition.rollout_request_defaults))
    requests = [Request("sampling", view.span(*ROLLOUT) or anchor, train, train_missing)]
    before = view.value("trainer", "val_before_train", default=True)
    frequency = view.value("trainer", "test_freq", default=-1)
    if before is not False or not isinstance(frequency, int) or frequency > 0:
        validation, validation_missing = settings((*ROLLOUT, "val_kwargs"), dict(edition.validation_request_defaults))
        requests.append(Request("sampling", view.span(*ROLLOUT, "val_kwargs") or anchor, validation, validation_missing))
    return tuple(requests)

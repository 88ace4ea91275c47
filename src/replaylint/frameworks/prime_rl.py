"""prime-rl (PrimeIntellect-ai/prime-rl): the vLLM server its `rl` and `inference` entrypoints start.

prime-rl is not on PyPI; the sources are GitHub files (see docs/frameworks-research.md §1).
Two editions (`EDITIONS`):

- `main` @ 559b447 (2026-08-21): no mask field of its own (the mask is `[inference.vllm]
  return_sampling_mask = true`, an attribute like any other); `src/prime_rl/inference/server.py:17`
  `os.environ.setdefault("VLLM_USE_V2_MODEL_RUNNER", "0")` for every server (after the
  `[inference.env_vars]` update, `src/prime_rl/entrypoints/inference.py:198-200`, so a value
  there wins); `TrainSamplingConfig` has no `top_p`/`top_k`.
- `sampling-mask`: the code-index text described below (the index gives no commit; it is on
  neither main @ 559b447 nor the branch feat/sampling-replay @ d09488d). Only it has
  `enable_return_sampling_mask`, `enable_return_sampling_mask_logprobs` and train-sampling
  `top_p`/`top_k`, so a file that writes one of them is read as this edition.

The sampling-mask edition:

- `packages/prime-rl-configs/src/prime_rl/configs/inference.py`: `InferenceConfig.to_namespace`
  builds vLLM's `argparse.Namespace` in Python: `if self.enable_return_sampling_mask:
  namespace.return_sampling_mask = True`; every `[vllm]` key becomes an attribute (`VllmConfig`
  has `extra="allow"`; `parse_extra_values` turns kebab-case keys into snake_case and JSON-parses
  string values); `if not hasattr(namespace, "logprobs_mode"): namespace.logprobs_mode =
  "processed_logprobs"`. `src/prime_rl/inference/vllm/server.py` then only fills in defaults
  (`parse_args(args=[], namespace=namespace)`): nothing is rendered as a command line.
- `.../configs/rl.py` `RLConfig.auto_setup_sampling_mask_capture`: the policy-sourced train
  samplings (`[[orchestrator.train.source]]` whose algorithm samples from the policy, or the
  group `[orchestrator.train.sampling]` when there are no sources) that truncate the
  distribution (`.../configs/orchestrator.py` `TrainSamplingConfig.truncates_distribution`:
  `self.top_p < 1.0 or self.top_k is not None`) set `inference.enable_return_sampling_mask = True`,
  whatever the file says. Group sampling values are inherited by each source key by key.
- `src/prime_rl/inference/server.py` `setup_vllm_env`: `os.environ.setdefault(
  "VLLM_USE_V2_MODEL_RUNNER", "1")`, after `os.environ.update(...config.env_vars)`
  (`src/prime_rl/entrypoints/inference.py`): a value in `[inference.env_vars]` wins.

A file is an `rl.toml` when it has `[orchestrator]` and `[trainer]` or `[inference]` (no
`[inference]`: no server is started, no launch); a standalone `inference.toml` has the InferenceConfig fields at the top
level (`enable_return_sampling_mask`, or `[vllm]` beside `[server]`). Settings carry the spans of prime-rl's own keys;
defaults prime-rl adds carry the span of the key that made them (the mask) or of the `[inference]` table.

A command line `rl @ FILE.toml` or `inference @ FILE.toml` is read by `prime_rl_command`: the script's
environment reaches the server (under `[inference.env_vars]`; a `VLLM_USE_V2_MODEL_RUNNER` it exports
survives `setdefault`) and decides a fork's tests of environment variables; the file on its own leaves its findings
in the fork's source to those command lines of the tree (`Launch.source_lines_by_launchers`). Not seen: CLI overrides
(`--inference.vllm.*`: they keep such a launch open), which custom algorithms sample from the policy (a
source with an `algo` of its own makes an implicit mask unknown). Eval requests: `prime_rl_eval`.

A fork: where the tree holds prime-rl's own package, `prime_rl_fork` reads it and its code decides in place of the
edition's defaults (its `setup_vllm_env` writes, `to_namespace`'s logprobs mode, `VllmConfig`'s replay field defaults,
what its validators set: `prime_rl_table`), and its configuration's text chooses the edition.

main's train requests: every policy-sourced `[[orchestrator.train.source]]` sends `temperature` (1.0 by default) and
`extra_body.top_k`, which prime-rl sets to -1 unless the config writes it, so with the mask on each such request needs
its own `top_k` (`_train_requests`).
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Mapping

from ..model import UNKNOWN, Assumption, Launch, LaunchKind, Request, Setting, Span
from ..records import record
from ..vllm.engine_fields import RUNNER_ENV
from .editions import Edition, Editions, build
from .prime_rl_eval import eval_requests, sampling_key
from .prime_rl_fork import PrimeRlFork, Switch, TrainDefaults, fork

if TYPE_CHECKING:
    from ..toml_document import TomlDocument
    from .nearby import ReadText


@record(unsafe_hash=True, kw_only=True)
class PrimeRlEdition(Edition):
    """What one prime-rl edition's configuration and server do (docs/frameworks-research.md §10).

    `own_keys`: `InferenceConfig` keys only it has, and `train_sampling_keys` the train-sampling
    keys only it has (a file that writes one is read as this edition); `captures_sampling_mask`:
    `enable_return_sampling_mask`, or truncating train sampling, turns the mask on
    (`auto_setup_sampling_mask_capture`); `runner_env`: the `VLLM_USE_V2_MODEL_RUNNER` its server
    sets with `setdefault` (after `[inference.env_vars]`: a value written there wins), for every
    server or, with `runner_env_needs_mask`, only where the mask is on; `logprobs_mode`:
    `to_namespace`'s default; `train_requests`: each policy-sourced train source sends its own
    requests (`temperature`, `extra_body.top_k`, `_train_requests`)."""

    own_keys: tuple[str, ...] = ()
    train_sampling_keys: tuple[str, ...] = ()
    captures_sampling_mask: bool
    runner_env: str
    runner_env_needs_mask: bool
    logprobs_mode: str = "processed_logprobs"
    train_requests: bool


MAIN = PrimeRlEdition(
    "main",
    refs=("559b44772e471d1538537b8805cc77f3824a5e64", "main"),
    source="PrimeIntellect-ai/prime-rl @ 559b447 src/prime_rl/inference/server.py:13-17; configs/inference.py:611-613; "
    "configs/orchestrator.py:46-71, :644-653",
    captures_sampling_mask=False,
    runner_env="0",
    runner_env_needs_mask=False,
    train_requests=True,
)
SAMPLING_MASK = PrimeRlEdition(
    "sampling-mask",
    source="code-index text (ids 70344712686, 70744034939): configs/inference.py to_namespace, configs/rl.py "
    "auto_setup_sampling_mask_capture, inference/server.py setup_vllm_env",
    own_keys=("enable_return_sampling_mask", "enable_return_sampling_mask_logprobs"),
    train_sampling_keys=("top_p", "top_k"),
    captures_sampling_mask=True,
    runner_env="1",
    runner_env_needs_mask=True,
    train_requests=False,
)
EDITIONS = Editions("prime-rl", "prime-rl", "attributes", (MAIN, SAMPLING_MASK))


def kind_of(document: TomlDocument) -> str | None:
    """ "rl", "inference" or None (not a prime-rl configuration)."""
    data = document.data
    if isinstance(data.get("orchestrator"), dict) and (isinstance(data.get("trainer"), dict) or isinstance(data.get("inference"), dict)):
        return "rl"
    if "orchestrator" in data:
        return None
    if isinstance(data.get("enable_return_sampling_mask"), bool):
        return "inference"
    if isinstance(data.get("vllm"), dict) and isinstance(data.get("server"), dict):
        return "inference"
    return None


def toml_launches(document: TomlDocument, read_text: ReadText | None = None) -> list[Launch] | None:
    """The launches of a prime-rl configuration (None: the file is not one); the registry's finder.
    Where the tree holds prime-rl's own package, its code decides (`prime_rl_fork`)."""
    return launches(document, read_text) if kind_of(document) is not None else None


def launches(
    document: TomlDocument, read_text: ReadText | None = None, env: Mapping[str, Setting] | None = None, kind: str | None = None
) -> list[Launch]:
    """`env`: what the launching script's environment writes (`prime_rl_command`), which decides a
    fork's `to_namespace` tests of environment variables; None: not known (the file on its own).
    `kind`: what the command that loads the file makes of it (None: its shape decides)."""
    kind = kind or kind_of(document)
    if kind == "rl":
        if not isinstance(document.data.get("inference"), dict):
            return []  # no [inference]: the rl entrypoint starts no server
        base: tuple[str, ...] = ("inference",)
        label = "prime-rl rl"
    elif kind == "inference":
        base, label = (), "prime-rl inference"
    else:
        return []
    forked = fork(document.source.path, read_text)
    key = _edition_key(document, base) or (forked.edition if forked is not None else None)
    launch = build(EDITIONS, lambda edition: _launch(document, base, label, edition, forked, env), key)
    if launch is None:
        return []
    # On its own, its findings in the fork's source are the tree's launches' (their environment decides).
    return [replace(launch, source_lines_by_launchers=True) if env is None else launch]


def _edition_key(document: TomlDocument, base: tuple[str, ...]) -> tuple[str, str] | None:
    """(the edition, the key as written) when the file writes a key only one edition has."""
    for edition in EDITIONS.editions:
        for path in _own_paths(document, base, edition):
            if document.value(*path) is not None:
                return edition.name, document.text(document.nearest(*path))
    return None


def _own_paths(document: TomlDocument, base: tuple[str, ...], edition: PrimeRlEdition) -> list[tuple[Any, ...]]:
    """Where `edition`'s own keys would be written: beside the mask, and (in an `rl.toml`) in
    the group's train sampling and each train source's or environment's."""
    paths: list[tuple[Any, ...]] = [(*base, key) for key in edition.own_keys]
    if base and edition.train_sampling_keys:
        train = ("orchestrator", "train")
        paths += [(*train, "sampling", key) for key in edition.train_sampling_keys]
        for field in ("source", "env"):
            sources = document.value(*train, field)
            for index, source in enumerate(sources if isinstance(sources, list) else []):
                sampling = source.get("sampling") if isinstance(source, dict) else None
                if isinstance(sampling, dict):
                    paths += [(*train, field, index, "sampling", key) for key in edition.train_sampling_keys]
    return paths


def _launch(
    document: TomlDocument,
    base: tuple[str, ...],
    label: str,
    edition: PrimeRlEdition,
    forked: PrimeRlFork | None,
    env: Mapping[str, Setting] | None,  # None: the file on its own, the environment not known
) -> Launch:
    if base:
        anchor = document.nearest(*base)
    else:
        anchor = document.span("vllm") or document.span("enable_return_sampling_mask") or document.source.index.span(0, 0)
    settings: dict[str, Setting] = {}
    vllm = document.value(*base, "vllm", default={})
    if isinstance(vllm, dict):
        for key, value in vllm.items():
            name = key.replace("-", "_")
            settings[name] = _setting(document, (*base, "vllm", key), name, _extra_value(value))
    model = document.value("model", "name") if base else None
    if "model" not in settings and isinstance(model, str):
        settings["model"] = _setting(document, ("model", "name"), "model", model)
    owner = EDITIONS.owner(edition)
    mask = _mask(document, base) if edition.captures_sampling_mask else None
    if mask is not None:
        settings["return_sampling_mask"] = mask
    assumed = _forked_namespace(document, base, forked, settings, env) if forked is not None else ()
    if "logprobs_mode" not in settings and not (forked is not None and forked.reads_config):
        mode = edition.logprobs_mode
        settings["logprobs_mode"] = Setting("logprobs_mode", mode, anchor, f"{owner}'s default logprobs_mode = {mode!r}")
    environment = {**(env or {}), **_env(document, base)}  # the script exports, then [inference.env_vars] over them
    said = f"{RUNNER_ENV}={edition.runner_env} (set by {owner})"
    if forked is not None and forked.server is not None:
        _forked_environment(forked, environment)
    elif not edition.runner_env_needs_mask:
        # setdefault after [inference.env_vars] is applied: a value written there wins.
        default = Setting(RUNNER_ENV, edition.runner_env, anchor, said, implied=True)
        environment[RUNNER_ENV] = replace(environment[RUNNER_ENV], replaces=default) if RUNNER_ENV in environment else default
    elif mask is not None and RUNNER_ENV not in environment:
        value = edition.runner_env if mask.value is True else UNKNOWN
        environment[RUNNER_ENV] = Setting(RUNNER_ENV, value, mask.span, said, implied=True)
    where = settings["return_sampling_mask"].span if "return_sampling_mask" in settings else anchor
    train = forked.train if forked is not None else None
    requests = _train_requests(document, where, owner, train) if edition.train_requests and base else ()
    if edition.train_requests and base and (train is None or train.eval_as_upstream):
        requests += eval_requests(document)
    return Launch(LaunchKind.FRAMEWORK, anchor, settings, environment, label=label, requests=requests, assumptions=assumed)


# Built-in algorithms of main @ 559b447 (`configs/algorithm.py`); all sample from
# `sampling.source`, "policy" by default, except `sft`, which must sample from a frozen model.
_ALGORITHMS = frozenset(("grpo", "echo", "max_rl", "rae", "hierarchical_grpo", "opd", "opsd", "sft"))


def _train_requests(document: TomlDocument, where: Span, owner: str, forked: TrainDefaults | None) -> tuple[Request, ...]:
    """main's train requests, one per `[[orchestrator.train.source]]` that samples from the
    policy: `TrainConfig.resolve_env_defaults` fills a source's sampling from the group's key by
    key (a source's `extra_body` replaces the group's whole), `TrainSamplingConfig` has
    `temperature = 1.0`, and `OrchestratorConfig.resolve_env_config` does
    `extra_body.setdefault("top_k", -1)` for policy-sourced sources (`configs/orchestrator.py:46-71`,
    `:274-286`, `:644-653`). A source whose algorithm is a plugin's is not known to sample from
    the policy: its request is open-ended. A fork's orchestrator gives its own defaults
    (`forked`; one that sets no `top_k` leaves it to the server's generation config)."""
    train = ("orchestrator", "train")
    sources = document.value(*train, "source")
    requests = []
    for index, source in enumerate(sources if isinstance(sources, list) else []):
        if not isinstance(source, dict):
            continue
        path = (*train, "source", index)
        policy = _samples_from_policy(document, path, source)
        if policy is False:
            continue
        found: dict[str, Setting] = {}
        unsaid = False
        for key, keys in (("temperature", ("temperature",)), ("top_k", ("extra_body", "top_k"))):
            written = sampling_key(document, train, path, source, keys)
            if written is not None:
                found[key] = _setting(document, written, key, document.value(*written))
            elif policy is True and (default := _train_default(key, where, owner, forked)) is not None:
                found[key] = default
            else:
                unsaid = True
        requests.append(Request("sampling", document.nearest(*path), found, open_ended=policy is not True or unsaid))
    return tuple(requests)


_TRAIN_DEFAULTS = {"temperature": 1.0, "top_k": -1}


def _train_default(key: str, where: Span, owner: str, forked: TrainDefaults | None) -> Setting | None:
    """The default prime-rl sends for a train request's `key` (None: none, the server decides)."""
    if forked is None:
        value = _TRAIN_DEFAULTS[key]
        written = "extra_body.top_k" if key == "top_k" else key
        return Setting(key, value, where, f"{written}={value} ({owner}'s default)")
    line = getattr(forked, key)
    if line is None or line.value is UNKNOWN:
        return None
    return replace(line.setting(key), span=where)  # a framework's default: the finding sits where the mask is turned on


def _samples_from_policy(document: TomlDocument, path: tuple[Any, ...], source: dict) -> Any:
    """True, False, or UNKNOWN (a plugin's algorithm): the source's own `algo`, else
    `[orchestrator.algo]` (GRPO by default)."""
    algo = source.get("algo") if isinstance(source.get("algo"), dict) else document.value("orchestrator", "algo", default={})
    algo = algo if isinstance(algo, dict) else {}
    kind = algo.get("type", "grpo")
    sampling = algo.get("sampling") if isinstance(algo.get("sampling"), dict) else {}
    if kind not in _ALGORITHMS:
        return UNKNOWN
    return kind != "sft" and sampling.get("source", "policy") == "policy"


def _extra_value(value: Any) -> Any:
    """`parse_extra_values`: a string that is JSON becomes what it encodes."""
    if isinstance(value, str):
        try:
            return json.loads(value)
        except ValueError:
            return value
    return value


def _setting(document: TomlDocument, path: tuple[Any, ...], name: str, value: Any) -> Setting:
    span = document.nearest(*path)
    return Setting(name, value, span, document.text(span), document.value_span(*path), _keys(document, path, value))


def _keys(document: TomlDocument, path: tuple[Any, ...], value: Any) -> dict[str, Setting]:
    if not isinstance(value, dict):
        return {}
    found = {}
    for key, item in value.items():
        inner = (*path, key)
        if document.span(*inner) is not None:
            found[key.replace("-", "_")] = _setting(document, inner, key, item)
    return found


def _mask(document: TomlDocument, base: tuple[str, ...]) -> Setting | None:
    explicit = document.value(*base, "enable_return_sampling_mask")
    path = (*base, "enable_return_sampling_mask")
    if explicit is True:
        span = document.nearest(*path)
        return Setting("return_sampling_mask", True, span, document.text(span), document.value_span(*path))
    if not base:
        return None  # a standalone server must ask for the mask itself
    implicit = _truncating_sampling(document)
    if implicit is None:
        return None
    value, span, written = implicit
    return Setting("return_sampling_mask", value, span, f"{written} (prime-rl turns the sampling mask on)")


def _truncating_sampling(document: TomlDocument) -> tuple[Any, Span, str] | None:
    """The train sampling key that makes prime-rl capture sampling masks: (True or UNKNOWN when
    the source's algorithm may not sample from the policy, its span, its text)."""
    train = ("orchestrator", "train")
    group = document.value(*train, "sampling", default={})
    group = group if isinstance(group, dict) else {}
    sources = document.value(*train, "source") or document.value(*train, "env")
    field = "source" if document.value(*train, "source") else "env"
    candidates: list[tuple[tuple[Any, ...] | None, dict]] = []
    if isinstance(sources, list) and sources:
        for index, source in enumerate(sources):
            if isinstance(source, dict):
                candidates.append(((*train, field, index), source))
    else:
        candidates.append((None, {}))
    unsure: tuple[Any, Span, str] | None = None
    for path, source in candidates:
        sampling = source.get("sampling") if isinstance(source.get("sampling"), dict) else {}
        for key, truncates in (("top_k", lambda v: v is not None), ("top_p", lambda v: isinstance(v, (int, float)) and v < 1.0)):
            where = (*path, "sampling", key) if path is not None and key in sampling else (*train, "sampling", key)
            value = sampling.get(key, group.get(key))
            if not truncates(value):
                continue
            span = document.nearest(*where)
            found = (True, span, document.text(span))
            if path is not None and "algo" in source:
                unsure = unsure or (UNKNOWN, span, document.text(span))
                continue
            return found
    return unsure


def _forked_namespace(
    document: TomlDocument, base: tuple[str, ...], forked: PrimeRlFork, settings: dict[str, Setting], env: Mapping[str, Setting] | None
) -> tuple[Assumption, ...]:
    """The fork's `VllmConfig` field defaults (a key the file writes wins; what its validators set wins over the file,
    `prime_rl_table`), its `to_namespace` writes (a default gives way to the file's key), its key table, then its writes
    under tests of environment variables that `env` decides (at the line that sets the variable; what they rest on is returned)."""
    written = dict(settings)
    for name, line in forked.fields.items():
        settings.setdefault(name, line.setting(name))
    own = {key: _setting(document, (*base, key), key, v) for key, v in document.value(*base, default={}).items() if not isinstance(v, dict)}
    for table, given in ((forked.table, written), (forked.inference, own)):
        if table is not None:
            table.apply(settings, given, written)
    for name, (line, only_unset) in forked.namespace.items():
        if not (only_unset and name in settings):
            settings[name] = line.setting(name)
    for switch in forked.switches:
        switched = _switched(document, base, switch)
        if switched is not None:
            settings[switch.name] = switched
    assumed = []
    for by_env in forked.env_switches:
        exports = env or {}
        if by_env.holds({name: setting.value for name, setting in exports.items()}, defaults=env is not None) is True:
            written = next((exports[name] for name in by_env.variables if name in exports), None)  # None: the read's default
            settings[by_env.name] = (
                by_env.by_default()
                if written is None
                else Setting(by_env.name, by_env.line.value, written.span, written.spelling, implied=True, via=(by_env.line.span,))
            )
            assumed.append(Assumption(f"{by_env.line.owner_line()} sets {by_env.line.text}", whole=True))
    return tuple(assumed)


def _switched(document: TomlDocument, base: tuple[str, ...], switch: Switch) -> Setting | None:
    """The engine argument an `[inference]` key of the fork's own sets (None: it sets none)."""
    path = (*base, switch.key)
    written = document.value(*path)
    if written is None and switch.default is None:
        return None
    key = written if written is not None else switch.default.value  # type: ignore[union-attr]
    if switch.value is UNKNOWN:
        value = key
    elif key is UNKNOWN:
        value = UNKNOWN
    elif not key:
        return None
    else:
        value = switch.value
    if switch.default is not None and written is None:
        return replace(switch.default.setting(switch.name), value=value)
    setting = _setting(document, path, switch.name, value)
    return replace(setting, spelling=f"{setting.spelling} (the forked prime-rl's to_namespace sets {switch.name})")


def _forked_environment(forked: PrimeRlFork, env: dict[str, Setting]) -> None:
    """The tree's `setup_vllm_env` writes, after `[inference.env_vars]`: a `setdefault` gives way."""
    for name, (line, only_unset) in forked.environment.items():
        written = line.setting(name)
        env[name] = replace(env[name], replaces=written) if only_unset and name in env else written


def _env(document: TomlDocument, base: tuple[str, ...]) -> dict[str, Setting]:
    env_vars = document.value(*base, "env_vars", default={})
    found = {}
    if isinstance(env_vars, dict):
        for name, value in env_vars.items():
            if name.startswith(("VLLM_", "DYN_")):
                path = (*base, "env_vars", name)
                span = document.nearest(*path)
                found[name] = Setting(
                    name, value if isinstance(value, str) else str(value), span, document.text(span), document.value_span(*path)
                )
    return found

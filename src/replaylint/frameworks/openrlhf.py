"""OpenRLHF (OpenRLHF/OpenRLHF, PyPI `openrlhf` 0.7.5 to 0.11.2): the engine dict of
`create_vllm_engines`.

Source: openrlhf 0.11.2 `openrlhf/trainer/ray/vllm_engine.py` `create_vllm_engines` builds
`actor_kwargs = {"model", "enforce_eager", "worker_extension_cls":
"openrlhf.trainer.ray.vllm_worker_wrap.WorkerWrap", "tensor_parallel_size", "seed",
"distributed_executor_backend", "max_model_len", "enable_prefix_caching", "dtype": "bfloat16",
"trust_remote_code": True, "full_determinism", "gpu_memory_utilization", "bundle_indices",
"num_gpus", "enable_sleep_mode"}`, adds `agent_func_path`, `remote_rm_url`, `mm_pad_token_ids`,
and `if logprobs_mode: actor_kwargs["logprobs_mode"] = logprobs_mode` (from the command line:
`--algo.advantage.is_correction_level`, 0.9.x `--enable_vllm_is_correction`), then
`RolloutRayActor.options(...).remote(**actor_kwargs)`; the actor keeps its own keys (`ACTOR_KEYS`)
and calls `vllm.AsyncEngineArgs(*args, **self.kwargs)` with the rest (0.7.5 and 0.8.11: the
same keys as keywords of `.remote(...)`, and `vllm.LLM(*args, **kwargs)`). So the mapping is the
whole engine configuration; a key that is no engine argument is a `TypeError`.

No OpenRLHF command-line flag reaches `return_sampling_mask`: replay is turned on by editing this
dict in a fork, which is what replaylint reads (`frontends/python/mappings`), and, for the command
lines of the fork's tree, `openrlhf_fork` (its keys with the flags' values, messages naming "the
forked OpenRLHF" with the file and line). Requests
(`trainer/ppo_utils/samples_generator.py`: `top_k=generate_kwargs.get("top_k", -1)`, never set)
are built in another file a fork may also edit: read from the fork's tree when it holds that file
(`openrlhf_requests`), not assumed otherwise. See
docs/frameworks-research-new-adapters.md section 2.

Command lines (`python -m openrlhf.cli.train_ppo_ray ...`, behind `ray job submit ... --`):
`command_launch` parses the words as the release's own argparse parser does. Its option table
per release is data (`data/openrlhf-options.json`, dumped from every wheel 0.7.0 to 0.11.2 by
scripts/dump_openrlhf_options.py); releases with the same table are one edition, chosen by the
project's pin. No release has an option that reaches `return_sampling_mask`: argparse refuses
such a word (`parse_args` -> `error("unrecognized arguments: ...")`, printed as
`train_ppo_ray.py: error: unrecognized arguments: <every word it did not take>`), before anything
starts. That refusal is reported (RPL204) when a refused word names a replay setting
(`--vllm_return_sampling_mask`, `--vllm.logprobs_mode`, `--top_k` ...) and every word is known;
an ambiguous abbreviation or a missing value is another argparse error, not quoted. Otherwise the
engines start only with `--vllm_num_engines`/`--vllm.num_engines` above 0, with the settings
the flags give `create_vllm_engines` (model, tensor parallelism, GPU memory, eager, prefix
caching) and, with the importance-sampling correction (`--enable_vllm_is_correction` 0.8.9 to
0.10.1, `--algo.advantage.is_correction_enable` 0.10.2 to 0.11.1, `--algo.advantage.is_correction_level`
other than `off` from 0.11.2), `logprobs_mode="processed_logprobs"` and `max_logprobs=1`: what replay
needs, but the mask cannot be on. The engines' environment is the command's: a direct launch's
exports (its driver's `ray.init` starts the actors with them, as verl's and SkyRL's are read), a
`ray job submit`'s job environment (its cluster's and its runtime env's `env_vars`), so a
`VLLM_USE_V2_MODEL_RUNNER` set there is judged (RPL206) as for any launch.
"""

from __future__ import annotations

import json
import os
from dataclasses import replace
from functools import lru_cache
from typing import Any, Mapping

from ..launch_context import LaunchContext
from ..model import UNKNOWN, Launch, LaunchKind, Setting, Span
from ..records import record
from ..vllm.command_line import Token
from .argparse_table import ParsedWords, parse_words
from .built_dicts import BuiltDict
from .editions import Edition, Editions, build
from .openrlhf_fork import ForkOptions, environment, fork, fork_options, forked_settings, switched_by
from .openrlhf_rebinds import correction_holds
from .openrlhf_requests import requests, sent_by
from .openrlhf_switches import caller_switches, switched_environment
from .refusals import names_replay, refusal, refused

SIGNATURE_KEY = "worker_extension_cls"
SIGNATURE_PREFIX = "openrlhf."
# Keys the Ray actor takes or pops itself (0.7.5 to 0.11.2); the rest reaches vLLM.
ACTOR_KEYS = frozenset(
    ("bundle_indices", "num_gpus", "full_determinism", "noset_visible_devices", "agent_func_path", "remote_rm_url", "mm_pad_token_ids")
)


def claims(settings: Mapping[str, Setting]) -> bool:
    """OpenRLHF's engine dict: its worker extension is OpenRLHF's."""
    extension = settings.get(SIGNATURE_KEY)
    return extension is not None and isinstance(extension.value, str) and extension.value.startswith(SIGNATURE_PREFIX)


def engine_settings(settings: Mapping[str, Setting], anchor: Span) -> dict[str, Setting]:
    """The engine arguments of OpenRLHF's dict: all of it but the actor's own keys (OpenRLHF adds
    nothing there; `anchor` is unused, as in every adapter of this form)."""
    return {name: setting for name, setting in settings.items() if name not in ACTOR_KEYS}


# -- command lines -------------------------------------------------------------------------------

_DATA = os.path.join(os.path.dirname(__file__), "data", "openrlhf-options.json")


@record(unsafe_hash=True)
class _Data:
    prog: str  # the parser's name in its messages
    family: Editions
    tables: Mapping[str, Mapping[str, Any]]  # edition -> option string -> nargs


@lru_cache(maxsize=1)
def _data() -> _Data:
    """The option tables and the editions they stand for, read when first asked for."""
    with open(_DATA, encoding="utf-8") as handle:
        data = json.load(handle)
    tables = {_edition_name(table["releases"]): table["options"] for table in data["tables"]}
    editions = tuple(Edition(_edition_name(table["releases"]), releases=tuple(table["releases"])) for table in reversed(data["tables"]))
    return _Data(data["prog"], Editions("OpenRLHF", "openrlhf", "keywords", editions), tables)


def __getattr__(name: str) -> Any:
    """`EDITIONS` (the registry's `Adapter.editions`), read with the option tables when first asked for."""
    if name == "EDITIONS":
        return _data().family
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _edition_name(releases: list[str]) -> str:
    return releases[0] if len(releases) == 1 else f"{releases[0]}-{releases[-1]}"


# The engine argument each flag gives `create_vllm_engines` (flat names to 0.10.1, groups from 0.10.2).
_ENGINE_OPTIONS = {
    "--pretrain": "model",
    "--actor.model_name_or_path": "model",
    "--vllm_tensor_parallel_size": "tensor_parallel_size",
    "--vllm.tensor_parallel_size": "tensor_parallel_size",
    "--vllm_gpu_memory_utilization": "gpu_memory_utilization",
    "--vllm.gpu_memory_utilization": "gpu_memory_utilization",
    "--enforce_eager": "enforce_eager",
    "--vllm.enforce_eager": "enforce_eager",
    "--enable_prefix_caching": "enable_prefix_caching",
    "--vllm.enable_prefix_caching": "enable_prefix_caching",
}
_NUM_ENGINES = ("--vllm_num_engines", "--vllm.num_engines")
# The importance-sampling correction: `create_vllm_engines(..., logprobs_mode="processed_logprobs")`.
_CORRECTION_FLAGS = ("--enable_vllm_is_correction", "--algo.advantage.is_correction_enable")
_CORRECTION_LEVEL = "--algo.advantage.is_correction_level"
_TEMPERATURE = "--rollout.temperature"


def command_launch(context: LaunchContext, span: Span, tokens: list[Token]) -> Launch | None:
    """`python -m openrlhf.cli.train_ppo_ray ...` as each release's parser reads it; in a fork's
    tree, with the engine dict of its own `create_vllm_engines` (`openrlhf_fork`)."""
    data = _data()
    forked = fork(span.path, context.read_text)
    known = {option for table in data.tables.values() for option in table}
    own = fork_options(span.path, context.read_text, known) if forked is not None else ForkOptions()
    if own.options:  # the fork's parser takes its own options too
        data = replace(data, tables={name: {**table, **own.options} for name, table in data.tables.items()})

    def launch(edition: Edition) -> Launch:
        return _launch(data, edition, span, tokens, context, forked, own)

    return build(data.family, launch, united_from=_accepting(data, tokens))


def _accepting(data: _Data, tokens: list[Token]) -> frozenset[str]:
    """The editions whose parser takes the command line, or refuses it for replay flags alone; an
    edition that stops it for another reason (a flag spelling it does not have, as the dotted
    `--actor.num_nodes` of 0.11 to older parsers, even beside the dotted `--rollout.temperature`)
    is not the one it is written for. Every
    edition when none takes it."""
    names = frozenset(edition.name for edition in data.family.editions)
    taken = frozenset(name for name in names if _takes(parse_words(tokens, data.tables[name])))
    return taken or names


def _takes(parsed: Any) -> bool:
    if parsed.unread or parsed.other_error:
        return False
    flags = [str(token.text) for token in parsed.refused if str(token.text).startswith("-")]
    # refused for a spelling it does not have beside the replay flag: another edition's launch
    return not parsed.refused or (bool(flags) and all(names_replay(flag) for flag in flags))


def _launch(
    data: _Data, edition: Edition, span: Span, tokens: list[Token], context: LaunchContext, forked: BuiltDict | None, own: ForkOptions
) -> Launch:
    parsed = parse_words(tokens, data.tables[edition.name])
    reasons = [*context.open_reasons, *(token.raw for token in parsed.unread)]
    launch = Launch(
        LaunchKind.FRAMEWORK,
        span,
        {},
        {},
        open_reasons=tuple(reasons),
        condition=context.condition,
        label="openrlhf: train_ppo_ray",
    )
    if parsed.unread or parsed.other_error:
        return launch  # what the parser says is not known, or it stops with another error first
    if parsed.refused:
        replay = next((token for token in parsed.refused if str(token.text).startswith("-") and names_replay(str(token.text))), None)
        if replay is None:
            return launch  # OpenRLHF refuses the launch for a reason that is not replay's
        message = f"{data.prog}: error: unrecognized arguments: {' '.join(str(token.text) for token in parsed.refused)}"
        name = str(replay.text).split("=", 1)[0].lstrip("-")
        return refused(launch, refusal(replay.span, replay.raw, name, message))
    if not _starts_engines(parsed):
        return launch
    settings = _engine_settings(parsed, data.family.owner(edition))
    # The engines' environment: a direct launch's driver starts Ray with its own (the script's
    # exports), a Ray job's actors get the job's (its cluster's and runtime env's), as for verl.
    launch = replace(launch, env=dict(context.env))
    if forked is None:
        return replace(launch, settings=settings)
    switched = switched_by(own, parsed.values)
    exported = {} if context.env_open else context.env  # what the driver, which runs create_vllm_engines, sees
    # A Ray job's runtime env reaches its actors too; a shell's exports reach the driver only (the
    # actors may run in a cluster started elsewhere).
    actors = exported if context.ray_job else {}
    callers = switched_by(caller_switches(span.path, context.read_text), parsed.values)
    correction = correction_holds(forked, callers)
    settings, more, assumed = forked_settings(forked, settings, span, ACTOR_KEYS, switched, exported, actors, correction)
    reasons += more
    label = f"{launch.label} (the fork's {forked.path})"
    given = {**sent_by(span.path, context.read_text, own, parsed.values, span), **_temperature(parsed)}
    sent = requests(span.path, context.read_text, given, settings.get("return_sampling_mask"), span)
    env = switched_environment(forked, environment(forked, launch.env), {**callers, **switched}, span)
    return replace(launch, settings=settings, env=env, open_reasons=tuple(reasons), label=label, requests=sent, assumptions=assumed)


def _temperature(parsed: ParsedWords) -> dict[str, Setting]:
    """`--rollout.temperature` as given (none: its default, 1.0, stands)."""
    if _TEMPERATURE not in parsed.values:
        return {}
    flag, values = parsed.values[_TEMPERATURE]
    value = _typed("temperature", values[-1].text) if values and values[-1].known else UNKNOWN
    return {"temperature": Setting("temperature", value, flag.span, " ".join(token.raw for token in (flag, *values)))}


def _typed(name: str, text: str | None) -> Any:
    """The value argparse's `type=int`/`type=float` makes of a word (UNKNOWN: it refuses it)."""
    kind = {"tensor_parallel_size": int, "gpu_memory_utilization": float, "temperature": float}.get(name)
    if kind is None:
        return text
    try:
        return kind(str(text))
    except ValueError:
        return UNKNOWN


def _starts_engines(parsed: ParsedWords) -> bool:
    """`if args.vllm.num_engines is not None and args.vllm.num_engines > 0` (default None)."""
    for option in _NUM_ENGINES:
        if option in parsed.values:
            text = parsed.values[option][1][0].text
            return text is None or not text.lstrip("-").isdigit() or int(text) > 0
    return False


def _engine_settings(parsed: ParsedWords, owner: str) -> dict[str, Setting]:
    settings: dict[str, Setting] = {}
    for option, (flag, values) in parsed.values.items():
        name = _ENGINE_OPTIONS.get(option)
        if name is None:
            continue
        value: Any = True if not values else _typed(name, values[-1].text) if values[-1].known else UNKNOWN
        settings[name] = Setting(name, value, flag.span, " ".join(token.raw for token in (flag, *values)))
    corrected = [parsed.values[option][0] for option in _CORRECTION_FLAGS if option in parsed.values]
    if _CORRECTION_LEVEL in parsed.values:
        flag, values = parsed.values[_CORRECTION_LEVEL]
        corrected = [flag] if values[-1].text != "off" else []
    for flag in corrected[:1]:
        said = f"{flag.raw} ({owner} sets logprobs_mode='processed_logprobs')"
        settings["logprobs_mode"] = Setting("logprobs_mode", "processed_logprobs", flag.span, said, implied=True)
        settings["max_logprobs"] = Setting("max_logprobs", 1, flag.span, said, implied=True)
    return settings

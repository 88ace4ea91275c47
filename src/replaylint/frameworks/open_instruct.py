"""open-instruct (allenai/open-instruct, commit e6c3044a, August 2026; not on PyPI): the keywords
of the `LLMRayActor` `.remote(...)` call in `create_vllm_engines`, and the command line of
`open_instruct/grpo_fast.py`, parsed by its `HfArgumentParser` (`command_launch`; the option table
in `data/open-instruct-options.json`, dumped from that commit by scripts/dump_open_instruct_options.py).

Source: `open_instruct/vllm_utils.py` `create_vllm_engines` calls
`ray.remote(LLMRayActor).options(...).remote(model=..., tensor_parallel_size=..., enforce_eager=...,
dtype="bfloat16", seed=..., distributed_executor_backend=..., enable_prefix_caching=...,
max_model_len=..., gpu_memory_utilization=..., logprobs_mode="processed_logprobs", ...,
prompt_queue=..., actor_manager=..., tool_parser_type=..., ...)`; `LLMRayActor.__init__` takes
its own keys (`ACTOR_KEYS`) as parameters, pops `noset_visible_devices` and `num_gpus`, writes
`kwargs["generation_config"] = "vllm"` and calls `vllm.AsyncEngineArgs(*args, **kwargs)` with
the rest: the keywords are the whole engine configuration, plus `generation_config="vllm"`.
`logprobs_mode="processed_logprobs"` is written in the call since commit 716f27531 (May 2026;
before, vLLM's default `raw_logprobs`): it is read from the call, not assumed.

No `grpo_fast.py` flag reaches `return_sampling_mask`: replay is turned on by editing this call
(or `kwargs[...]` in the actor) in a fork. Requests go through the actor's OpenAI server with
`SamplingConfig` fields (no `top_k`), which a fork may extend: not assumed, unless the fork is in
the checked tree (`open_instruct_fork`: then its actor call, its actor and its request code decide
what a `grpo_fast.py` command line starts). See docs/frameworks-research-new-adapters.md section 3.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import replace
from functools import lru_cache
from typing import Any, Callable, Mapping

from ..launch_context import LaunchContext
from ..model import UNKNOWN, Launch, LaunchKind, Setting, Span
from ..records import record
from ..vllm.command_line import Token
from . import open_instruct_fork
from .argparse_table import ParsedWords, parse_words
from .editions import Edition, Editions, build
from .nearby import first_folder
from .open_instruct_fork import ACTOR_KEYS, SIGNATURE
from .refusals import names_replay, refusal, refused

ADDED = {"generation_config": "vllm"}  # `_setup_and_start_async_engine`


def claims(settings: Mapping[str, Setting]) -> bool:
    """open-instruct's actor call: at least two of the keys only its actor takes."""
    return len(SIGNATURE & set(settings)) >= 2


def engine_settings(settings: Mapping[str, Setting], anchor: Span) -> dict[str, Setting]:
    """The engine arguments of the actor call: the keywords less the actor's own, and what the
    actor adds (reported at the mask, else at `anchor`)."""
    engine = {name: setting for name, setting in settings.items() if name not in ACTOR_KEYS}
    mask = settings.get("return_sampling_mask")
    for name, value in ADDED.items():
        engine[name] = Setting(name, value, mask.span if mask else anchor, f"{name}={value!r} (open-instruct sets)", implied=True)
    return engine


# -- command lines -------------------------------------------------------------------------------

COMMIT = "e6c3044aa6201c8bfa4573c1b03142af599e730d"
_SOURCE = "allenai/open-instruct @ e6c3044a open_instruct/vllm_utils.py create_vllm_engines, LLMRayActor; grpo_fast.py"
EDITIONS = Editions("open-instruct", "open-instruct", "words", (Edition(COMMIT[:8], refs=(COMMIT,), source=_SOURCE),))
_DATA = os.path.join(os.path.dirname(__file__), "data", "open-instruct-options.json")
# transformers 5.4.0 `hf_argparser.py` `parse_args_into_dataclasses` (open-instruct asks for >=5.4.0)
_UNUSED = "Some specified arguments are not used by the HfArgumentParser: {}"
# Where the dataclasses of `grpo_fast.py`'s parser are defined: a fork in the tree may add a field.
_PARSER_MODULES = (
    "open_instruct/grpo_utils.py",
    "open_instruct/olmo_core_utils.py",
    "open_instruct/dataset_transformation.py",
    "open_instruct/model_utils.py",
    "open_instruct/data_loader.py",
    "open_instruct/environments/tools/utils.py",
)


@record(unsafe_hash=True)
class _Table:
    options: Mapping[str, Any]  # option string -> nargs
    required: tuple[tuple[str, ...], ...]  # the option strings of each required field


@lru_cache(maxsize=1)
def _table() -> _Table:
    with open(_DATA, encoding="utf-8") as handle:
        data = json.load(handle)
    return _Table(data["options"], tuple(tuple(strings) for strings in data["required"]))


def command_launch(context: LaunchContext, span: Span, tokens: list[Token]) -> Launch | None:
    """`python open_instruct/grpo_fast.py ...` (`uv run`, `-m open_instruct.grpo_fast`): the words as
    its `HfArgumentParser` reads them. A word it does not take makes `parse_args_into_dataclasses`
    raise `ValueError(f"Some specified arguments are not used by the HfArgumentParser:
    {remaining_args}")` before any engine starts: reported (RPL204) when such a word is an option
    naming a replay setting (no flag of grpo_fast.py reaches the engine's mask, its logprobs mode
    or `top_k`), every word is known and argparse stops for no other reason first (a missing
    `--model_name_or_path`, an ambiguous abbreviation). Otherwise the engines start (unless
    `--vllm_num_engines 0`) with `logprobs_mode="processed_logprobs"` and the command's
    environment: `main` calls `ray.init(runtime_env={"env_vars": {k: v for k, v in
    os.environ.items() if k not in EXCLUDED_ENV_VARS}})` (grpo_fast.py:2214; only the visible
    devices are left out), which every engine actor inherits."""
    parsed = parse_words(tokens, _table().options)
    if parsed.unread or parsed.other_error or not _required_given(parsed):
        return None
    launch = Launch(LaunchKind.FRAMEWORK, span, {}, {}, condition=context.condition, label="open-instruct: grpo_fast")
    if parsed.refused:
        replay = next((token for token in parsed.refused if str(token.text).startswith("-") and names_replay(str(token.text))), None)
        if replay is None or _fork_has(replay, span.path, context.read_text):
            return None  # refused for another reason, or a fork whose parser we do not know
        issue = refusal(replay.span, replay.raw, _field(replay), _UNUSED.format([str(token.text) for token in parsed.refused]))
        return build(EDITIONS, lambda edition: refused(launch, issue))
    engines = parsed.values.get("--vllm_num_engines") or parsed.values.get("--vllm-num-engines")
    if engines is not None and engines[1] and engines[1][-1].text == "0":
        return None
    forked = open_instruct_fork.fork(span.path, context.read_text)
    if forked is not None:
        made = _forked(launch, forked, parsed, context)
        return build(EDITIONS, lambda edition: made)
    owner = f"open-instruct {COMMIT[:8]}"
    anchor = Setting("logprobs_mode", "processed_logprobs", span, f"logprobs_mode='processed_logprobs' ({owner} sets)", implied=True)
    started = replace(launch, settings={"logprobs_mode": anchor}, env=dict(context.env), version_hint=context.version_hint)
    return build(EDITIONS, lambda edition: started)


def _forked(launch: Launch, forked: open_instruct_fork.EngineFork, parsed: ParsedWords, context: LaunchContext) -> Launch:
    """The launch as the fork's own actor starts it and its request code asks."""
    settings = open_instruct_fork.settings(forked, launch.span)
    given = parsed.values.get("--temperature")
    temperature = _number(given[1][-1].text) if given is not None and given[1] else None
    return replace(
        launch,
        settings=settings,
        env=open_instruct_fork.environment(forked, dict(context.env), launch.span),
        requests=open_instruct_fork.requests(forked, settings, launch.span, temperature, {} if context.env_open else context.env),
        assumptions=open_instruct_fork.resting_on(forked),
        label=f"{launch.label} (the fork's {forked.path})",
        version_hint=context.version_hint,
    )


def _number(text: str | None) -> Any:
    try:
        return float(text) if text is not None else UNKNOWN
    except ValueError:
        return UNKNOWN


def _required_given(parsed: ParsedWords) -> bool:
    """argparse's "the following arguments are required" comes before the unused words."""
    return all(any(option in parsed.values for option in strings) for strings in _table().required)


def _field(token: Token) -> str:
    return str(token.text).split("=", 1)[0].lstrip("-").replace("-", "_")


def _fork_has(token: Token, launching: str, read_text: Callable[[str], str | None] | None) -> bool:
    """Whether open-instruct's source in the tree (a fork, found from the launching file's folder
    upward: its scripts run from the repository root) defines the field the word names: then its
    parser takes it, and the built-in table says nothing of it."""
    if read_text is None:
        return False
    name = _field(token)
    declared = re.compile(rf"^\s+{re.escape(name.removeprefix('no_'))}\s*:", re.MULTILINE)
    texts = first_folder(_PARSER_MODULES, launching, read_text)
    return texts is not None and any(text is not None and declared.search(text) is not None for text in texts)

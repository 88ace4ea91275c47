"""TRL (huggingface/trl): `trl vllm-serve` and `python -m trl.scripts.vllm_serve`.

Source: trl 1.16.0 (the same in 1.11.0-1.15.0), `trl/scripts/vllm_serve.py` `build_command`:
it execs `python -m vllm.entrypoints.cli.main serve <model>` with its own `ScriptArguments`
translated (`--vllm-model-impl` -> `--model-impl`, `--log-level` -> `--uvicorn-log-level`,
`--enable-prefix-caching <bool>` -> `--enable-prefix-caching`/`--no-enable-prefix-caching`,
`--enforce-eager`/`--trust-remote-code` when true, the others under their own names), then
`--weight-transfer-config '{"backend": "nccl"}' --logprobs-mode processed_logprobs
--max-logprobs -1` (and `--enable-scale-out` on vLLM >= 0.30), then every argument its parser
did not recognise, verbatim and last: `return command + list(extra_args or [])`
(`trl/cli/commands/vllm_serve.py`: "Unrecognized arguments are forwarded to `vllm serve`").
So a forwarded `--logprobs-mode X` wins over TRL's (vLLM keeps the last occurrence).

The parser is transformers' `HfArgumentParser` (5.24.0 `hf_argparser.py`): every field is
`--snake_case` and `--kebab-case`, abbreviations are allowed, a `bool` field takes an optional
value (`--enforce-eager`, `--enforce-eager false`), `enable_prefix_caching: bool | None`
requires one. `--config FILE` (`trl/scripts/utils.py` `parse_args_and_config`): `env:` entries
are exported, keys naming a field set its default, any other key becomes `--<key> str(value)`,
placed after TRL's flags and before the command line's unknown arguments
(`set_defaults_with_config`), so `return_sampling_mask: true` reaches vLLM as
`--return_sampling_mask True`.

Two editions (`EDITIONS`), chosen by the project's pin of `trl`:

- **1.16.0** (1.11.0 to 1.16.0 read: alike but for `--enable-scale-out`, which 1.16.0 adds on
  vLLM >= 0.30 and no replay rule reads): the command above.
- **1.10.0** (1.10.0 read; 0.16.0, 0.17.0 and 1.0.0 read too, with fewer `ScriptArguments`
  fields and the same parsing; every release from 0.29.0 to 1.10.0 refuses a replay flag when
  the framework judge runs its own code): `trl/cli/commands/vllm_serve.py` calls `parse_args_and_config`
  without `return_remaining_strings`, so transformers' `parse_args_into_dataclasses` raises
  `ValueError(f"Some specified arguments are not used by the HfArgumentParser:
  {remaining_args}")` for any word its parser does not take, before vLLM starts; with none, keys
  of a `--config` file that are no field raise `ValueError(f"Unknown arguments from config file:
  {config_remaining_strings}. Please remove them, add them to the dataclass, or set
  `fail_with_unknown_args=False`.")`. Otherwise `llm_worker` builds `LLM(model=..., ...,
  logprobs_mode="processed_logprobs")` in process (`trl/scripts/vllm_serve.py:343-363`): the
  mask cannot be asked for. The refusal is reported (RPL204) when a refused word names a
  replay setting (the mask or the logprobs mode) and every refused word is known.

Without a pin the editions disagree on any forwarded word, so only what both build is checked.
The words TRL adds carry the span of the whole command; fixes edit only the user's words.

Requests come from the trainer (trl 1.16.0): with `use_vllm=True, vllm_mode="server"`, a
`GRPOConfig`, `RLOOConfig` or `DistillationConfig` makes `VLLMGeneration` send its
`repetition_penalty` (TRL's default 1.0, `trl/trainer/grpo_config.py:573-574`), `top_k` and
`temperature` (defaults 0 and 1.0, `grpo_config.py:532-549`) with every generation request (`trl/generation/vllm_generation.py:583, 617-632`), which `VLLMClient.generate`
posts to `/v1/completions` after `sampling_params.update(generation_kwargs or {})`
(`trl/generation/vllm_client.py:431-455`), to `vllm_server_base_url`, else port
`vllm_server_port` (8000; the server's `--port` defaults to 8000 too, `trl/scripts/vllm_serve.py:107-108`).
They are read where the program that builds the config also starts the server
(`frontends/python/flow/trl_trainers.py`) and become the server's `clients` (`with_trainer_requests`);
a config in another file, or given on a command line (`frameworks/trl_server_mode.py`), is tied
to the server after the run (`cross_file`).
The colocate mode sends the same field (`vllm_generation.py:662-683`) to an `LLM` that TRL builds
without the mask (`vllm_generation.py:347-363`): nothing to read there.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from ..command import CommandHandle, command_launch as vllm_command_launch
from ..launch_context import LaunchContext
from ..model import ArgIssue, Launch, LaunchKind, Request, Setting, Span
from ..records import record
from ..vllm.command_line import Token
from .editions import Edition, Editions, build
from .refusals import names_replay, refusal


@record(unsafe_hash=True, kw_only=True)
class TrlEdition(Edition):
    """What one TRL edition's `trl vllm-serve` does with the words it is given (see the module
    docstring). `forced`: the flags it adds after the user's fields (1.11 on: `build_command`'s
    words; 1.10: `llm_worker`'s `LLM(..., logprobs_mode="processed_logprobs")`);
    `forwards_unrecognised`: words its parser does not take, and a `--config` file's keys that
    are no field, reach `vllm serve` last; else they are refused (`ValueError`) before vLLM
    starts."""

    forced: tuple[tuple[str, str], ...]
    forwards_unrecognised: bool


FORWARDS = TrlEdition(
    "1.16.0",
    releases=("1.11.0", "1.12.0", "1.13.0", "1.14.0", "1.14.1", "1.14.2", "1.15.0", "1.16.0"),
    source="trl 1.16.0 trl/scripts/vllm_serve.py build_command; trl/cli/commands/vllm_serve.py",
    forced=(("--logprobs-mode", "processed_logprobs"), ("--max-logprobs", "-1")),
    forwards_unrecognised=True,
)
REFUSES = TrlEdition(
    "1.10.0",
    # 0.29.0 to 1.10.0: each judged by its own code (tests/frameworks_judge/README.md)
    releases=("0.16.0", "0.17.0", "0.29.0", "0.29.1", "1.0.0", "1.1.0", "1.2.0", "1.3.0", "1.4.0")
    + ("1.5.0", "1.5.1", "1.6.0", "1.7.0", "1.7.1", "1.8.0", "1.9.0", "1.9.1", "1.9.2", "1.10.0"),
    source="trl 1.10.0 trl/scripts/vllm_serve.py:343-363 (llm_worker); transformers 5.24.0 hf_argparser.py",
    forced=(("--logprobs-mode", "processed_logprobs"),),
    forwards_unrecognised=False,
)
EDITIONS = Editions("TRL", "trl", "words", (FORWARDS, REFUSES))

# ScriptArguments fields (trl 1.16.0): how each takes its value, and the vLLM flag it becomes.
_VALUE, _OPTIONAL_BOOL, _REQUIRED_BOOL = "value", "bool?", "bool"
_FIELDS: dict[str, tuple[str, str | None]] = {
    "model": (_VALUE, None),
    "revision": (_VALUE, "--revision"),
    "tensor_parallel_size": (_VALUE, "--tensor-parallel-size"),
    "data_parallel_size": (_VALUE, "--data-parallel-size"),
    "host": (_VALUE, "--host"),
    "port": (_VALUE, "--port"),
    "gpu_memory_utilization": (_VALUE, "--gpu-memory-utilization"),
    "dtype": (_VALUE, "--dtype"),
    "max_model_len": (_VALUE, "--max-model-len"),
    "enable_prefix_caching": (_REQUIRED_BOOL, "--enable-prefix-caching"),
    "enforce_eager": (_OPTIONAL_BOOL, "--enforce-eager"),
    "kv_cache_dtype": (_VALUE, "--kv-cache-dtype"),
    "trust_remote_code": (_OPTIONAL_BOOL, "--trust-remote-code"),
    "log_level": (_VALUE, "--uvicorn-log-level"),
    "vllm_model_impl": (_VALUE, "--model-impl"),
    "distributed_executor_backend": (_VALUE, "--distributed-executor-backend"),
    "speculative_config": (_VALUE, "--speculative-config"),
}
# The order build_command writes them in.
_ORDER = (
    "host",
    "port",
    "tensor_parallel_size",
    "data_parallel_size",
    "gpu_memory_utilization",
    "dtype",
    "kv_cache_dtype",
    "vllm_model_impl",
    "log_level",
    "revision",
    "max_model_len",
    "enable_prefix_caching",
    "enforce_eager",
    "trust_remote_code",
    "distributed_executor_backend",
    "speculative_config",
)
_OPTIONS = {f"--{name}": name for name in _FIELDS} | {f"--{name.replace('_', '-')}": name for name in _FIELDS}
_TRUE = {"yes", "true", "t", "y", "1"}
_FALSE = {"no", "false", "f", "n", "0"}
_NEGATIVE_NUMBER = re.compile(r"^-\d+$|^-\d*\.\d+$")
# The trainers' configs whose requests reach `trl vllm-serve` (see the module docstring).
TRAINER_CONFIGS = ("GRPOConfig", "RLOOConfig", "DistillationConfig")
TRAINER_ROUTE = "/v1/completions"
SERVER_PORT = 8000
SERVER_HOST = "0.0.0.0"  # `vllm_server_host` (grpo_config.py:632-635)
SENT_FIELDS = ("repetition_penalty", "top_k", "temperature")  # as written: TRL's defaults are 1.0, 0, 1.0
# Trainer fields that decide whether and where requests go, and what replaces the sent fields.
TRAINER_SWITCHES = ("use_vllm", "vllm_mode", "vllm_server_base_url", "vllm_server_port", "generation_kwargs")

_UNUSED = "Some specified arguments are not used by the HfArgumentParser: {}"
_UNUSED_CONFIG = (
    "Unknown arguments from config file: {}. Please remove them, add them to the dataclass, or set `fail_with_unknown_args=False`."
)


def _lookup(text: str) -> str | None:
    """The field an option word names: exactly, or as the unique prefix argparse accepts."""
    if text in _OPTIONS:
        return _OPTIONS[text]
    if not text.startswith("--") or len(text) < 3:
        return None
    fields = {field for option, field in _OPTIONS.items() if option.startswith(text)}
    return fields.pop() if len(fields) == 1 else None


def _is_option(token: Token) -> bool:
    text = token.text
    return text is not None and text.startswith("-") and text != "-" and not _NEGATIVE_NUMBER.match(text)


class _Parsed:
    """What TRL's parser makes of the words: field values (with their words) and the rest."""

    def __init__(self) -> None:
        self.fields: dict[str, tuple[Any, list[int]]] = {}
        self.extras: list[int] = []
        self.config: int | None = None


def _parse(tokens: list[Token]) -> _Parsed:
    parsed = _Parsed()
    position = 0
    while position < len(tokens):
        token = tokens[position]
        if token.text == "--config" and parsed.config is None:
            parsed.config = position
            position += 2
            continue
        if not _is_option(token):
            parsed.extras.append(position)
            position += 1
            continue
        assert token.text is not None
        name, eq, inline = token.text.partition("=")
        field = _lookup(name)
        if field is None:
            parsed.extras.append(position)
            position += 1
            continue
        kind, _ = _FIELDS[field]
        following = tokens[position + 1] if position + 1 < len(tokens) else None
        if eq:
            parsed.fields[field] = (inline, [position])
            position += 1
        elif kind == _OPTIONAL_BOOL and (following is None or _is_option(following) or following.spread):
            parsed.fields[field] = (True, [position])
            position += 1
        elif following is None:
            parsed.fields[field] = (None, [position])
            position += 1
        else:
            parsed.fields[field] = (following.text, [position, position + 1])
            position += 2
    return parsed


def _bool(value: Any) -> Any:
    if isinstance(value, bool) or value is None:
        return value
    text = str(value).lower()
    return True if text in _TRUE else False if text in _FALSE else None


def command_launch(context: LaunchContext, span: Span, tokens: list[Token], elements: Any, syntax: Any) -> Launch | None:
    """The launch of `trl vllm-serve ARGS` as each edition builds it (`editions.build`)."""
    return build(EDITIONS, lambda edition: _launch(edition, span, tokens, elements, syntax, context))


def _launch(edition: TrlEdition, span: Span, tokens: list[Token], elements: Any, syntax: Any, context: LaunchContext) -> Launch | None:
    parsed = _parse(tokens)
    combined: list[Token] = []
    origin: list[int | None] = []  # index in `tokens` of each combined word (None: TRL's own or the config's)
    env = dict(context.env)
    config_fields: dict[str, tuple[Any, Token]] = {}
    config_extras: list[Token] = []
    load_config = context.load_config
    open_reasons = list(context.open_reasons)
    if parsed.config is not None:
        path_token = tokens[parsed.config + 1] if parsed.config + 1 < len(tokens) else None
        loaded = load_config(path_token.text, path_token) if load_config and path_token is not None and path_token.text else None
        if loaded is None:
            open_reasons.append(f"--config {path_token.raw if path_token else ''} (not readable here)".strip())
        else:
            _read_config(loaded, env, config_fields, config_extras)

    def add(token: Token, index: int | None) -> None:
        combined.append(token)
        origin.append(index)

    def own(text: str) -> Token:
        return Token(text, span, f"(trl vllm-serve adds) {text}" if text.startswith("--") else text)

    model = parsed.fields.get("model")
    if model is not None and len(model[1]) == 2:
        add(tokens[model[1][1]], model[1][1])
    elif model is not None:
        add(Token(model[0], tokens[model[1][0]].span, tokens[model[1][0]].raw), None)
    elif "model" in config_fields:
        add(config_fields["model"][1], None)
    else:
        add(Token(None, span, "trl vllm-serve --model (not given)"), None)
    for field in _ORDER:
        _, flag = _FIELDS[field]
        if field in parsed.fields:
            value, indices = parsed.fields[field]
            flag_token = tokens[indices[0]]
            value_token = tokens[indices[1]] if len(indices) == 2 else None
        elif field in config_fields:
            value, value_token = config_fields[field]
            flag_token, indices = value_token, []
        else:
            continue
        assert flag is not None
        first = indices[0] if indices else None
        if field in ("enable_prefix_caching", "enforce_eager", "trust_remote_code"):
            truth = _bool(value)
            if truth is None and value is not None:
                return None  # string_to_bool rejects it: TRL stops before vLLM starts
            if field == "enable_prefix_caching":
                add(Token(flag if truth else "--no-" + flag[2:], flag_token.span, flag_token.raw), first)
            elif truth:
                add(Token(flag, flag_token.span, flag_token.raw), first)
            continue
        add(Token(flag, flag_token.span, flag_token.raw), first)
        if value_token is not None and value_token is not flag_token:
            add(value_token, indices[1] if len(indices) == 2 else None)
        else:
            add(Token(None if value is None else str(value), flag_token.span, flag_token.raw), None)
    named = model is not None or "model" in config_fields  # TRL requires `--model`: else the script's arguments may carry it
    stop = None if edition.forwards_unrecognised else _refusal(tokens, parsed, config_extras)
    if stop is not None:
        del combined[1:], origin[1:]  # TRL stops before vLLM starts: only the model is left to name the launch
        env = {}
    else:
        for flag, value in edition.forced:
            add(own(flag), None)
            add(Token(value, span, value), None)
        for token in config_extras if edition.forwards_unrecognised else ():
            add(token, None)
        for index in parsed.extras:  # 1.10: only words whose text is unknown, which may be nothing
            add(tokens[index], index)
    # TRL's own words: the config file is read above, vLLM's parser is not given it
    serving = replace(context, kind=LaunchKind.FRAMEWORK, env=env, load_config=None, open_reasons=tuple(open_reasons))
    launch = vllm_command_launch(serving, span, combined, elements, syntax, complete=named)
    handle = launch.handle
    if isinstance(handle, CommandHandle):
        indices: dict[str, tuple[int, ...]] = {}
        for name, found in handle.token_indices.items():
            kept = tuple(origin[i] for i in found if origin[i] is not None)
            if kept:
                indices[name] = kept  # type: ignore[assignment]
        handle = replace(handle, tokens=list(tokens), token_indices=indices)
    issues = launch.issues + ((stop.issue,) if stop is not None and stop.issue is not None and named else ())
    return replace(launch, handle=handle, issues=issues)


def with_trainer_requests(launch: Launch, requests: tuple[Request, ...]) -> Launch:
    """A `trl vllm-serve` launch with the requests a trainer sends it, under every edition."""
    if not requests:
        return launch
    framework = launch.framework
    if framework is not None and framework.editions:
        editions = {name: replace(each, clients=each.clients + requests) for name, each in framework.editions.items()}
        framework = replace(framework, editions=editions)
    return replace(launch, clients=launch.clients + requests, framework=framework)


@record(unsafe_hash=True)
class _Refusal:
    """TRL 1.10's `ValueError` for words its parser does not take: `issue` quotes it when every
    refused word is known and one of them names a replay setting."""

    issue: ArgIssue | None


def _refusal(tokens: list[Token], parsed: _Parsed, config_extras: list[Token]) -> _Refusal | None:
    """The refusal of `_parse`'s extras (the script's own arguments aside), else of the config
    file's unknown keys; None when there is no word TRL surely refuses (a word we cannot read may
    expand to nothing)."""
    refused = [tokens[index] for index in parsed.extras if not tokens[index].forwarded]
    message = _UNUSED
    if not any(token.known for token in refused):
        if refused or not config_extras:
            return None
        refused, message = config_extras, _UNUSED_CONFIG
    replay = [token for token in refused if token.known and str(token.text).startswith("-") and names_replay(str(token.text))]
    if not replay or not all(token.known for token in refused):
        return _Refusal(None)
    first = sorted(replay, key=lambda token: "mask" not in str(token.text))[0]  # the mask before the mode
    name = str(first.text).split("=", 1)[0].lstrip("-").replace("-", "_")
    return _Refusal(refusal(first.span, first.raw, name, message.format([token.text for token in refused])))


def _read_config(loaded: list[Token], env: dict[str, Setting], fields: dict[str, tuple[Any, Token]], extras: list[Token]) -> None:
    """A `--config` file's entries, from the words vLLM's reader makes of it (`--key` then its
    value words; a `true` switch is the key word alone, a `false` one is dropped)."""
    groups: list[tuple[Token, list[Token]]] = []
    for token in loaded:
        if token.text is not None and token.text.startswith("--") and token.value is None:
            groups.append((token, []))
        elif groups:
            groups[-1][1].append(token)
    for flag, values in groups:
        assert flag.text is not None
        key = flag.text[2:]
        if key == "env" and len(values) == 1 and isinstance(values[0].value, dict):
            for sub in values[0].keys.values():
                env[sub.name] = Setting(sub.name, None if sub.value is None else str(sub.value), sub.span, sub.spelling, sub.value_span)
            continue
        if not values:
            value: Any = True
            value_token = Token("True", flag.span, flag.raw)
        elif len(values) == 1 and values[0].value is None:
            value, value_token = values[0].text, values[0]
        else:
            value = values[0].value if len(values) == 1 else [v.text for v in values]
            value_token = Token(None if value is None else repr(value), values[0].span, values[0].raw)
        if key in _FIELDS:
            fields[key] = (value, value_token)
        else:
            extras.extend([Token("--" + key, flag.span, flag.raw), value_token])

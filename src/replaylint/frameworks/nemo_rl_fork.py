"""A NeMo-RL fork in the checked tree: its own vLLM worker decides the engine arguments.

NeMo-RL has no pass-through that its released configs use to turn replay on outside the
`sampling-mask-replay` branch, so a fork edits the worker,
`nemo_rl/models/generation/vllm/vllm_worker.py` (main @ 7ea279a, `_load_model`, lines 570-601):

    llm_kwargs = dict(model=self.model_name, ..., disable_log_stats=False, **vllm_kwargs)
    logprobs_mode = self.cfg["vllm_cfg"].get("logprobs_mode")
    if logprobs_mode is not None:
        llm_kwargs["logprobs_mode"] = logprobs_mode
    ...
    self._create_engine(llm_kwargs)          # vllm.LLM(**llm_kwargs)

What is read of it (CPython's parser; nothing of the tree runs): the keywords of that `dict(...)`
call whose values are literals (`return_sampling_mask=True`, or the keys of a dict the module
names spread into it: `**REPLAY_LLM_KWARGS`; one that `vllm_kwargs` also holds is
`TypeError: dict() got multiple values for keyword argument`), literal writes to the dict or to
`vllm_kwargs` at the top of the function (the last one counts; one to the dict under an `if`
on `vllm_cfg` keys is decided by the recipe, `nemo_rl_engine_call.tested_writes`; one under
another condition leaves a replay key unknown; `vllm_kwargs.setdefault(key, literal)` holds where neither the recipe's
`vllm_kwargs` nor a write gives the key, and so does `vllm_kwargs.setdefault(key,
self.cfg["vllm_cfg"].get(key, default))`, with the recipe's `vllm_cfg` value, else the code's default;
while `vllm_kwargs` is not read here either one leaves a replay key unknown), whether `vllm_cfg.logprobs_mode` is applied after the call (main) or not
(v0.7.0 hard-codes it), and the `VLLM_*` variables the worker module writes with a literal
(`os.environ[...] = ...` replaces what `vllm_cfg.env_vars` forwarded, `os.environ.setdefault`
does not). The literal keywords of the engine call beside its `**` dict (`vllm.LLM(**llm_kwargs,
return_sampling_mask=True)`) are written last. A literal write to `vllm_kwargs` under an `if` that
the configuration's values decide (`fork_conditions.evaluated`: the worker's drop of a
`speculative_config` whose `num_speculative_tokens` is 0) stands where the test holds. Anything
else of the worker is the edition's.
A rebinding of `vllm_kwargs` before the call that merges dicts around it (`vllm_kwargs = {**_REPLAY_VLLM_KWARGS,
**vllm_kwargs}`; `dict(...)`, `|`) gives their keys as `setdefault` does when merged before it, as writes after it;
a dict merged that is not read here, or a merge under a condition, leaves the replay keys unknown.
"""

from __future__ import annotations

import ast
import os
from dataclasses import field, replace
from functools import lru_cache
from typing import Callable, Iterator, Mapping

from ..model import UNKNOWN, ArgIssue, Assumption, Setting, Span
from ..records import record
from .fork_conditions import bound_once, config_read, decided, evaluated, guarded
from .fork_source import (
    MASK,
    Written,
    callee_name,
    default_writes,
    dict_pairs,
    environment_writes,
    key_writes,
    literal,
    merged_around,
    named_dict,
    named_dicts,
    nested_keys,
    nested_settings,
    parse,
    placed,
    snippet,
    statements,
)
from .nearby import found_upward
from .nemo_rl_engine_call import CalleeWrite, applied, callee_writes, tested_writes
from .nemo_rl_requests import upstream_requests, upstream_text
from .refusals import names_replay

WORKER = "nemo_rl/models/generation/vllm/vllm_worker.py"
ASYNC_WORKER = "nemo_rl/models/generation/vllm/vllm_worker_async.py"  # `vllm_cfg.async_engine`'s requests
REPLAY_MODULE = "nemo_rl/models/policy/sampling_mask_replay.py"  # the `sampling-mask-replay` branch's
OWNER = "the forked NeMo-RL"
# Keys a write under a condition leaves unknown (other conditional writes to `vllm_kwargs` stand
# only where the configuration decides their test: `_held`).
_MAYBE = frozenset(("return_sampling_mask", "logprobs_mode", "logits_processors", "generation_config"))
_ENGINE_CALLS = ("_create_engine", "LLM", "AsyncEngineArgs", "EngineArgs")


@record(unsafe_hash=True)
class WorkerFork:
    path: str  # the worker, as the tree spells it
    keywords: Mapping[str, Written]  # literal keywords of the `dict(...)` call
    written: Mapping[str, Written]  # literal writes to the dict after it (top of the function)
    spread: Mapping[str, Written]  # literal writes to the `**` dict before the call
    unknown: frozenset[str]  # replay keys written under a condition
    reads_logprobs_mode: int  # the line that applies `vllm_cfg.logprobs_mode` after the call (main), 0: none
    environment: Mapping[str, tuple[Written, bool]] = field(default_factory=dict)  # name -> (value, only when unset)
    spread_name: str = ""  # the `**` dict's name (`vllm_kwargs`)
    decided_later: tuple[tuple[str, Written, str], ...] = ()  # (key, literal write to the `**` dict, the `if` it sits under)
    names: Mapping[str, ast.expr] = field(default_factory=dict, repr=False, compare=False)  # the function's names bound once
    replay_branch: bool = False  # the tree also holds the replay branch's module
    own_requests: bool = False  # its `SamplingParams(...)` do not take `top_k`/`temperature` as NeMo-RL's do
    defaults: Mapping[str, Written] = field(default_factory=dict)  # `vllm_kwargs.setdefault(...)` before the call (top)
    # `vllm_kwargs.setdefault(key, self.cfg["vllm_cfg"].get(READ, default))` (top): key -> (READ, the code's default)
    default_reads: Mapping[str, tuple[str, Written]] = field(default_factory=dict)
    # Keywords of the `dict(...)` call that read a `vllm_cfg` key: argument -> (key, the code's default)
    config_reads: Mapping[str, tuple[str, Written]] = field(default_factory=dict)
    callee: tuple[CalleeWrite, ...] = ()  # writes in the method the dict is handed to (`_create_engine`), made last
    tested: tuple[CalleeWrite, ...] = ()  # writes to the dict after it under an `if` (`vllm_cfg` tests: the recipe decides)
    text: str = field(default="", repr=False, compare=False)  # the worker's file, for `span`

    def said(self, written: Written) -> str:
        return f"{written.text} ({OWNER}'s {self.path}:{written.line})"

    def setting(self, name: str, written: Written, anchor: Span) -> Setting:
        """The fork's value; the mask as written (every message names its line: `resting_on`)."""
        span = placed(self.path, self.text, written.line, anchor)
        keys = nested_settings(self.path, self.text, written.nested, anchor, OWNER)
        return Setting(
            name, written.value, span, written.text if name == MASK else self.said(written), keys=keys, implied=True, via=(anchor,)
        )


def fork(launching: str, read_text: Callable[[str], str | None] | None) -> WorkerFork | None:
    """The worker of a NeMo-RL fork found from the launching file's folder upward (NeMo-RL's
    scripts run from its root); None without one, or when its engine dict is not found (the
    editions' then stand, as for an installed NeMo-RL)."""
    found = found_upward(WORKER, launching, read_text) if read_text is not None else None
    if found is None or read_text is None:
        return None
    worker = _read(*found)
    if worker is None:
        return None
    root = found[0][: -len(WORKER)] if found[0].endswith(WORKER) else ""
    replay = read_text(os.path.join(root, REPLAY_MODULE)) is not None
    async_text = read_text(os.path.join(root, ASYNC_WORKER))
    own_requests = worker.own_requests or (async_text is not None and not upstream_text(async_text))
    return replace(worker, replay_branch=replay, own_requests=own_requests)


@lru_cache(maxsize=8)
def _read(path: str, text: str) -> WorkerFork | None:
    module = parse(text)
    if module is None:
        return None
    for function in (node for node in ast.walk(module) if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))):
        found = _engine_dict(function)
        if found is not None:
            name, call = found
            return _worker(path, text, module, function, name, call)
    return None


def _engine_dict(function: ast.FunctionDef | ast.AsyncFunctionDef) -> tuple[str, ast.Call] | None:
    """`NAME = dict(...)` at the top of a function that hands NAME to the engine."""
    handed = {_handed(node) for node in ast.walk(function) if isinstance(node, ast.Call)} - {None}
    for statement in function.body:
        if (
            isinstance(statement, ast.Assign)
            and len(statement.targets) == 1
            and isinstance(target := statement.targets[0], ast.Name)
            and target.id in handed
            and isinstance(call := statement.value, ast.Call)
            and isinstance(call.func, ast.Name)
            and call.func.id == "dict"
        ):
            return target.id, call
    return None


def _handed(call: ast.Call) -> str | None:
    """The name a call hands to the engine: `self._create_engine(NAME)`, `vllm.LLM(**NAME)`."""
    if callee_name(call) not in _ENGINE_CALLS:
        return None
    arguments = [*call.args, *(keyword.value for keyword in call.keywords if keyword.arg is None)]
    return next((argument.id for argument in arguments if isinstance(argument, ast.Name)), None)


def _worker(
    path: str, text: str, module: ast.Module, function: ast.FunctionDef | ast.AsyncFunctionDef, name: str, call: ast.Call
) -> WorkerFork:
    keywords = {}
    named = named_dicts(module)
    for keyword in call.keywords:
        value = literal(keyword.value)
        if keyword.arg is not None and value is not UNKNOWN:
            keywords[keyword.arg] = Written(value, keyword.lineno, snippet(text, keyword), nested_keys(keyword.value))
        for key, node in (named_dict(keyword.value, named) or []) if keyword.arg is None else ():  # `**REPLAY_LLM_KWARGS`
            if (found := literal(node)) is not UNKNOWN:
                keywords[key] = Written(found, node.lineno, f"{key}={found!r}")
    spread = next((k.value.id for k in call.keywords if k.arg is None and isinstance(k.value, ast.Name) and k.value.id not in named), "")
    written: dict[str, Written] = {}
    before: dict[str, Written] = {}
    unknown: set[str] = set()
    reads_mode = 0
    decided_later = []
    defaults: dict[str, Written] = {}
    default_reads: dict[str, tuple[str, Written]] = {}
    owners = _owners(bound_once(function))
    for statement, condition in guarded(function.body):
        for target, key, value in key_writes(statement):
            found = literal(value)
            if target == spread and condition and key not in _MAYBE and found is not UNKNOWN and statement.lineno < call.lineno:
                decided_later.append((key, Written(found, statement.lineno, snippet(text, statement)), condition))
    for statement, top in statements(function.body):
        merged = _merged_defaults(statement, spread, named, text) if statement.lineno < call.lineno else None
        for key, given, over in merged or ():  # `vllm_kwargs = {**REPLAY_DEFAULTS, **vllm_kwargs}`
            if top and given.value is not UNKNOWN and (over or key not in defaults):
                (before if over else defaults)[key] = given
            elif key in _MAYBE or not key:
                unknown.update([key] if key else _MAYBE)
        for target, key, value in key_writes(statement):
            after = statement.lineno > call.lineno
            if target not in (name, spread) or (target == name) != after:
                continue
            found = literal(value)
            if target == name and key == "logprobs_mode" and found is UNKNOWN:
                reads_mode = statement.lineno  # main: `llm_kwargs["logprobs_mode"] = logprobs_mode` (vllm_cfg's)
            elif top and found is not UNKNOWN:
                (written if target == name else before)[key] = Written(
                    found, statement.lineno, snippet(text, statement), nested_keys(value)
                )
            elif key in _MAYBE and target == spread:
                unknown.add(key)
        for target, key, value in default_writes(statement) if statement.lineno < call.lineno else ():
            found, read = literal(value), config_read(value, *owners)
            if target != spread or (top and (key in defaults or key in default_reads)):  # the first one holds
                continue
            if top and found is not UNKNOWN:
                defaults[key] = Written(found, statement.lineno, snippet(text, statement))
            elif top and read is not None:  # `self.cfg["vllm_cfg"].get("return_sampling_mask", False)`: the recipe's
                default_reads[key] = (read[0], Written(read[1], statement.lineno, snippet(text, statement)))
            elif key in _MAYBE:
                unknown.add(key)
    written.update(_engine_call_keywords(module, text))
    reads = _config_reads(call, text, bound_once(function))
    return WorkerFork(
        path,
        keywords,
        written,
        before,
        frozenset(unknown),
        reads_mode,
        environment_writes(module),
        spread,
        tuple(decided_later),
        bound_once(function),
        own_requests=not upstream_requests(module),
        defaults=defaults,
        default_reads=default_reads,
        config_reads=reads,
        callee=callee_writes(module, function, name, text),
        tested=tested_writes(function, name, call.lineno, text),
        text=text,
    )


def _merged_defaults(statement: ast.stmt, spread: str, named: dict, text: str) -> list[tuple[str, Written, bool]] | None:
    """The keys a rebinding of the `**` dict merges around it (`vllm_kwargs = {**DEFAULTS, **vllm_kwargs}`):
    (key, its value, whether over the dict's own keys); a dict merged that is not read here as the key ""."""
    target = statement.targets[0] if isinstance(statement, ast.Assign) and len(statement.targets) == 1 else None
    around = merged_around(statement.value, spread) if isinstance(target, ast.Name) and target.id == spread else None  # type: ignore[union-attr]
    if around is None:
        return None
    found = []
    for over, parts in enumerate(around):
        for key, node in parts:
            pairs = [(key, node)] if key is not None else named_dict(node, named) or dict_pairs(node)
            unread = [("", Written(UNKNOWN, node.lineno, snippet(text, node)), bool(over))]
            found += [
                (k, Written(literal(v), v.lineno, f"{k}={snippet(text, v)}", nested_keys(v)), bool(over)) for k, v in pairs or []
            ] or unread
    return found


_VLLM_CFG = "self.cfg['vllm_cfg']"


def _owners(names: Mapping[str, ast.expr]) -> tuple[str, ...]:
    """How the function spells the recipe's `vllm_cfg`: `self.cfg["vllm_cfg"]`, a name bound once to it."""
    return (_VLLM_CFG, *(name for name, node in names.items() if ast.unparse(node) == _VLLM_CFG))


def _config_reads(call: ast.Call, text: str, names: Mapping[str, ast.expr]) -> dict[str, tuple[str, Written]]:
    """The keywords of the engine dict's `dict(...)` call that read a key of the recipe's
    `vllm_cfg` (`self.cfg["vllm_cfg"].get("return_sampling_mask", False)`, `vllm_cfg["key"]` with
    `vllm_cfg = self.cfg["vllm_cfg"]`): argument -> (the key, the code's default, UNKNOWN when
    the code writes none)."""
    owners = _owners(names)
    found = {}
    for keyword in call.keywords:
        read = config_read(keyword.value, *owners) if keyword.arg is not None else None
        if read is not None:
            found[keyword.arg] = (read[0], Written(read[1], keyword.lineno, snippet(text, keyword)))
    return found


def _engine_call_keywords(module: ast.Module, text: str) -> dict[str, Written]:
    """The literal keywords of the worker's engine call beside its `**` dict
    (`vllm.LLM(**llm_kwargs, return_sampling_mask=True)`): the last word, over the dict's."""
    found = {}
    for call in (node for node in ast.walk(module) if isinstance(node, ast.Call) and callee_name(node) in _ENGINE_CALLS[1:]):
        if any(keyword.arg is None for keyword in call.keywords):
            for keyword in call.keywords:
                if keyword.arg is not None and (value := literal(keyword.value)) is not UNKNOWN:
                    found[keyword.arg] = Written(value, keyword.lineno, snippet(text, keyword))
    return found


def engine(
    fork: WorkerFork,
    settings: dict[str, Setting],
    spread: Mapping[str, Setting],
    mode: Setting | None,
    anchor: Span,
    configured: Callable[[str], Setting | None] = lambda _: None,
    spread_read: bool = True,
    env: Mapping[str, Setting] | None = None,
) -> list[ArgIssue]:
    """The fork's worker applied to the settings the configuration gives (`spread`: those of
    `vllm_kwargs`, inside `settings` too, `spread_read`: all of them, else `vllm_kwargs` was not
    read here; `mode`: `vllm_cfg.logprobs_mode`; `configured`: a `vllm_cfg` key's setting in the
    recipe; `env`: what the launch exports, which decides a test of an environment variable): its
    literal keywords, its keywords that read `vllm_cfg` and its writes, in the order it makes them;
    the refusals it makes."""
    issues = []
    for key in (*fork.defaults, *fork.default_reads):
        if key in spread or key in fork.spread:
            continue  # `setdefault` gives way to the recipe's key and to a write
        if key in fork.defaults:
            found: Setting | None = fork.setting(key, fork.defaults[key], anchor)
        else:
            found = _configured(fork, key, *fork.default_reads[key], configured(fork.default_reads[key][0]), anchor)
        if found is not None and not spread_read and key in _MAYBE:  # `vllm_kwargs` may hold the key
            found = Setting(
                key, UNKNOWN, anchor, f"{key} (set by default in {fork.path} unless vllm_kwargs, not read here, has it)", implied=True
            )
        if found is not None:
            settings[key] = found
    for key, written in fork.spread.items():
        settings[key] = fork.setting(key, written, anchor)
    for key, written in _held(fork, spread):
        settings[key] = fork.setting(key, written, anchor)
    for key, written in fork.keywords.items():
        issues += _duplicated(fork, key, written, spread)
        settings[key] = fork.setting(key, written, anchor)
    for key, (read, written) in fork.config_reads.items():
        found = _configured(fork, key, read, written, configured(read), anchor)
        if found is not None:
            issues += _duplicated(fork, key, written, spread)
            settings[key] = found
    tested = {write.written.line: write for write in fork.tested}
    for line, key, written in sorted(
        [*((w.line, k, w) for k, w in fork.written.items()), *((t.written.line, t.key, None) for t in fork.tested)]
    ):
        found = fork.setting(key, written, anchor) if written is not None else _decided(fork, tested[line], configured, anchor, env=env)
        if isinstance(found, Setting):
            settings[key] = found
    later = fork.written.get("logprobs_mode")
    if mode is not None and mode.value is not None and fork.reads_logprobs_mode > (later.line if later else 0):
        settings["logprobs_mode"] = mode  # the configured mode, applied after the fork's own write
    for key in fork.unknown:
        settings[key] = Setting(key, UNKNOWN, anchor, f"{key} (written under a condition in {fork.path})", implied=True)
    asynchronous = configured("async_engine")  # `VllmAsyncGenerationWorker`: another module's `_create_engine`
    synchronous = asynchronous is None or asynchronous.value is False
    for write in fork.callee:
        found = _decided(fork, write, configured, anchor, synchronous, env)
        if isinstance(found, Setting):
            settings[write.key] = found
    return issues


def _decided(
    fork: WorkerFork,
    write: CalleeWrite,
    configured: Callable[[str], Setting | None],
    anchor: Span,
    applies: bool = True,
    env: Mapping[str, Setting] | None = None,
) -> Setting | bool | None:
    """A write under a test (`applies`: made by the engine the recipe starts): the recipe's switch
    where it decides the test; a replay key the recipe does not decide, unknown."""
    found = applied(write, configured, fork.path, fork.text, OWNER, anchor, env) if applies else None
    if found is None and write.key in _MAYBE:
        return Setting(write.key, UNKNOWN, anchor, f"{write.key} ({write.written.text}, {fork.path}:{write.written.line})", implied=True)
    return found


def _duplicated(fork: WorkerFork, key: str, written: Written, spread: Mapping[str, Setting]) -> list[ArgIssue]:
    """A replay keyword of the `dict(...)` call that `vllm_kwargs` also holds: a `TypeError`
    (other refusals are NeMo-RL's business: `refusals`)."""
    duplicate = spread.get(key)
    if duplicate is None or not names_replay(key):
        return []
    detail = f"TypeError: dict() got multiple values for keyword argument '{key}' ({fork.said(written)})"
    return [ArgIssue("framework-rejected", duplicate.span, duplicate.spelling, key, detail)]


def _configured(fork: WorkerFork, key: str, read: str, written: Written, given: Setting | None, anchor: Span) -> Setting | None:
    """The value a keyword reading `vllm_cfg.READ` gives: the recipe's when it has the key, else
    the code's default at the keyword's line (a replay key without one: unknown; another: left)."""
    if given is not None:
        return replace(given, name=key)
    if written.value is not UNKNOWN:
        return fork.setting(key, written, anchor)
    if key in _MAYBE:
        return Setting(key, UNKNOWN, anchor, f"{key} (vllm_cfg.{read}, which the configuration does not give)", implied=True)
    return None


def _held(fork: WorkerFork, spread: Mapping[str, Setting]) -> Iterator[tuple[str, Written]]:
    """The worker's writes to the `**` dict under an `if` that the configuration's values decide
    (`if isinstance(spec, dict) and spec.get("num_speculative_tokens") == 0:
    vllm_kwargs["speculative_config"] = None`, with `spec = vllm_kwargs.get(...)`); a key the
    configuration does not give leaves the test undecided, and the write is not applied."""

    def read(node: ast.expr) -> object:
        found = config_read(node, fork.spread_name)
        return spread[found[0]].value if found is not None and found[0] in spread else UNKNOWN

    for key, written, condition in fork.decided_later:
        if decided(condition, lambda test: evaluated(test, read, fork.names)) is True:
            yield key, written


def environment(fork: WorkerFork, env: dict[str, Setting], anchor: Span) -> None:
    """The worker's own writes of `VLLM_*` variables, over (or, `setdefault`, under) `env`."""
    for name, (written, only_unset) in fork.environment.items():
        if not (only_unset and name in env):
            env[name] = fork.setting(name, written, anchor)


def resting_on(fork: WorkerFork, settings: Mapping[str, Setting]) -> tuple[Assumption, ...]:
    """What every finding of the launch rests on when the fork's worker turns the mask on: the
    line that does, named in each message."""
    mask = settings.get("return_sampling_mask")
    written = (
        fork.written.get("return_sampling_mask")
        or fork.keywords.get("return_sampling_mask")
        or fork.spread.get("return_sampling_mask")
        or fork.defaults.get("return_sampling_mask")
        or fork.default_reads.get("return_sampling_mask", ("", None))[1]
    )
    said_of = lambda w: f"{OWNER}'s {fork.path}:{w.line} sets {w.text}"  # noqa: E731
    tested = (w.written for w in (*fork.callee, *fork.tested) if w.key == "return_sampling_mask")
    called = next((w for w in tested if mask is not None and mask.spelling.endswith(f" ({said_of(w)})")), None)
    said = said_of(called) if called is not None else ""
    if mask is not None and called is not None and mask.implied:
        switch = mask.spelling.removesuffix(f" ({said})")  # the recipe's key its test reads
        return (Assumption(said if switch == called.text else f"{said}, as `{switch}` asks", whole=True),)
    if mask is None or written is None or not mask.implied or mask.spelling != written.text:
        return ()
    return (Assumption(f"{OWNER}'s {fork.path}:{written.line} sets {written.text}", whole=True),)

"""An open-instruct fork in the checked tree: its own engine actor decides what `grpo_fast.py`
starts, and its own request code what every rollout asks.

open-instruct has no flag that reaches the engine's mask, so a fork edits
`open_instruct/vllm_utils.py` (e6c3044a): the keywords of the actor call in
`create_vllm_engines` (`ray.remote(LLMRayActor).options(..., runtime_env=RuntimeEnv(env_vars={...}))
.remote(model=..., logprobs_mode="processed_logprobs", ...)`, lines 1256-1304), the writes of
`LLMRayActor._setup_and_start_async_engine` to the keywords before
`vllm.AsyncEngineArgs(*args, **kwargs)` (`kwargs["generation_config"] = "vllm"`, line 686) and to
the built arguments' attributes after it (`engine_args.disable_log_stats = True`), and
the request of `process_request` (`actor.client.completions.create(..., extra_body={...},
**dataclasses.asdict(SamplingConfig))`, line 1009), whose `SamplingConfig` (line 138) has no
`top_k`.

What is read (CPython's parser; nothing of the tree runs): the literal keywords of the actor
call less the actor's own (`ACTOR_KEYS`), the literal `env_vars` of its
`runtime_env`, the actor's literal writes to `kwargs` and to the built `engine_args`' attributes
at the top of its methods (with the dicts of the module merged into `kwargs`, `dict_merges`: each key at its
line in that dict; a merge not read leaves the replay keys unknown) (one under a test of environment variables that the actor's own
`runtime_env` gives as literals, `if os.environ.get("X") == "1":`, stands where the test holds;
one under another condition leaves a replay key unknown; a dict's literal
keys each at its line: `speculative_config={..., "enable_adaptive_verification": True}`), the module's
literal writes of `VLLM_*` variables, and
the request's `top_k`: a literal in `extra_body` (or a name the sender binds once to one, or to
the `SamplingConfig` dict's `pop("top_k")`), else a literal default of a `SamplingConfig`
field that no `SamplingConfig(...)` call of the module sets, else none (the engine's
`generation_config="vllm"` leaves no model default to stand in; without it, the model's may).
The actor's methods are read as the class the actor call starts runs them (`ray.remote(Subclass)`
of `LLMRayActor`: an override in place of the parent's method, the parent's where it calls
`super()`); a write to `kwargs` after `AsyncEngineArgs(...)` is built does not reach the engine.
A fork whose actor call is not found keeps the built-in edition.
"""

from __future__ import annotations

import ast
from dataclasses import field
from functools import lru_cache
from typing import Any, Callable, Mapping

from ..model import UNKNOWN, Assumption, Request, Setting, Span
from ..records import record
from .dict_merges import merge_named
from .fork_classes import class_chain, method_statements
from .fork_conditions import EnvNumber, bound_once, decided, env_number, env_test, guarded
from .fork_source import (
    MASK,
    Written,
    attribute_write,
    callee_name,
    env_vars,
    environment_writes,
    is_environ,
    key_writes,
    literal,
    named_dicts,
    nested_keys,
    nested_settings,
    parse,
    placed,
    snippet,
)
from .nearby import found_upward
from .open_instruct_actor_env import env_vars_node, read_in_actor

ENGINES = "open_instruct/vllm_utils.py"
OWNER = "the forked open-instruct"
# `LLMRayActor.__init__`'s own parameters, and what it pops from `**kwargs`.
ACTOR_KEYS = frozenset(
    (
        "tool_parser_type",
        "tool_definitions",
        "tool_stop_sequences",
        "max_steps",
        "per_turn_max_tokens",
        "tool_call_timeout",
        "mask_tool_use",
        "pools",
        "bundle_indices",
        "prompt_queue",
        "results_queue",
        "eval_results_queue",
        "actor_manager",
        "inflight_updates",
        "reward_config",
        "train_dataset",
        "eval_dataset",
        "noset_visible_devices",
        "num_gpus",
    )
)
SIGNATURE = frozenset(("prompt_queue", "results_queue", "eval_results_queue", "actor_manager", "tool_parser_type", "inflight_updates"))
_MAYBE = frozenset(("return_sampling_mask", "logprobs_mode", "logits_processors", "generation_config"))
_ENGINE_ARGS = ("AsyncEngineArgs", "EngineArgs")
_CLIENT_CALLS = ("create",)  # `client.completions.create`, `client.chat.completions.create`


@record(unsafe_hash=True)
class EngineFork:
    path: str  # the fork's vllm_utils.py, as the tree spells it
    engine: Mapping[str, Written]  # what reaches `AsyncEngineArgs`, as the fork writes it
    unknown: frozenset[str]  # replay keys the actor writes under a condition
    environment: Mapping[str, tuple[Written, bool]]  # name -> (value, only when unset)
    top_k: Written | None  # the request's, None: not sent
    sends: bool  # a request to the actor's server was found
    request_line: int = 0  # the request's call
    text: str = field(default="", repr=False, compare=False)  # the fork's file, for `span`

    def said(self, written: Written) -> str:
        return f"{written.text} ({OWNER}'s {self.path}:{written.line})"

    def span(self, line: int, anchor: Span) -> Span:
        return placed(self.path, self.text, line, anchor)


def fork(launching: str, read_text: Callable[[str], str | None] | None) -> EngineFork | None:
    """The engine actor of an open-instruct fork found from the launching file's folder upward
    (its scripts run from the repository root); None without one."""
    found = found_upward(ENGINES, launching, read_text) if read_text is not None else None
    return _read(*found) if found is not None else None


@lru_cache(maxsize=8)
def _read(path: str, text: str) -> EngineFork | None:
    module = parse(text)
    if module is None:
        return None
    call = next((node for node in ast.walk(module) if _is_actor_call(node)), None)
    if call is None:
        return None
    engine: dict[str, Written] = {}
    for keyword in call.keywords:
        value = literal(keyword.value)
        if keyword.arg is not None and keyword.arg not in ACTOR_KEYS and value is not UNKNOWN:
            engine[keyword.arg] = Written(value, keyword.lineno, snippet(text, keyword), nested_keys(keyword.value))
    unknown: set[str] = set()
    switches = _switch_env(module, call)
    tests = {id(s): test for f in ast.walk(module) if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef)) for s, test in guarded(f.body)}
    named = named_dicts(module)
    built = ""  # the name the actor binds its `vllm.AsyncEngineArgs(...)` to: its attributes set after are engine keys
    method = ""
    for statement, top, in_method in _actor_statements(module, call):
        if in_method != method:  # the class body's order is not the order calls run in
            method, built = in_method, ""
        if isinstance(statement, ast.Assign) and isinstance(statement.value, ast.Call) and callee_name(statement.value) in _ENGINE_ARGS:
            built = statement.targets[0].id if isinstance(statement.targets[0], ast.Name) else ""
        written = attribute_write(statement, built) if built else None
        if written is not None and (value := literal(written[1])) is not UNKNOWN and top:
            engine[written[0]] = Written(value, statement.lineno, snippet(text, statement))
        elif written is not None and written[0] in _MAYBE:
            unknown.add(written[0])
        if not built:  # a dict of the module merged in: `kwargs.update(replay_engine_kwargs())`
            merge_named(statement, "kwargs", top, named, text, engine, unknown, _MAYBE)
        for target, key, value in key_writes(statement):
            found = literal(value)
            if target != "kwargs" or built:
                continue  # another dict, or written after the engine's arguments were built
            held = None if top or found is UNKNOWN else _held(tests.get(id(statement), ""), switches)
            if (top or held is not None) and found is not UNKNOWN:
                if top or held:
                    said = snippet(text, statement) + (held if isinstance(held, str) else "")
                    engine[key] = Written(found, statement.lineno, said, nested_keys(value))
            elif key in _MAYBE:
                unknown.add(key)
    environment = {name: (written, False) for name, written in _runtime_env(call).items()}
    environment.update(environment_writes(module))
    request = next((node for node in ast.walk(module) if _is_client_call(node)), None)
    top_k = _request_top_k(request, module, text) if request is not None else None
    if top_k is not None and request is not None and _reads_actor_env(top_k, request):
        top_k = read_in_actor(top_k, call, text)
    line = request.lineno if request is not None else 0
    return EngineFork(path, engine, frozenset(unknown), environment, top_k, request is not None, line, text)


def _is_actor_call(node: ast.AST) -> bool:
    """`....remote(...)` with at least two of the keys only open-instruct's actor takes."""
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "remote"
        and len(SIGNATURE & {keyword.arg for keyword in node.keywords if keyword.arg}) >= 2
    )


def _actor_statements(module: ast.Module, call: ast.Call) -> list[tuple[ast.stmt, bool, str]]:
    """The statements of the methods of the class whose `__init__` takes the actor's queues, as
    the class the actor call starts (`ray.remote(ReplayLLMRayActor)`, a subclass of it in the
    module) runs them: a method it overrides in its place, the parent's where it calls `super()`;
    each with the name of its method."""
    for node in ast.walk(module):
        if isinstance(node, ast.ClassDef) and any(_takes_queues(method) for method in node.body):
            chain = class_chain(module, _started(call) or node.name)
            chain = chain if node in chain else [node]
            names = dict.fromkeys(m.name for klass in reversed(chain) for m in klass.body if isinstance(m, ast.FunctionDef))
            return [(*placed, name) for name in names for placed in method_statements(chain, name)]
    return []


def _started(call: ast.Call) -> str | None:
    """The class of `ray.remote(Name).options(...).remote(...)`."""
    node: ast.expr = call.func
    while isinstance(node, (ast.Attribute, ast.Call)):
        if isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "remote" and getattr(node.func, "value", None) is not None:
            if getattr(node.func.value, "id", "") == "ray" and node.args and isinstance(node.args[0], ast.Name):  # type: ignore[attr-defined]
                return node.args[0].id
        node = node.func if isinstance(node, ast.Call) else node.value
    return None


def _takes_queues(method: ast.stmt) -> bool:
    if not isinstance(method, ast.FunctionDef) or method.name != "__init__":
        return False
    names = {argument.arg for argument in (*method.args.args, *method.args.kwonlyargs)}
    return len(SIGNATURE & names) >= 2


def _reads_actor_env(top_k: Written, request: ast.Call) -> bool:
    """Whether the request's `top_k` is read from the environment in the request itself (in the actor's
    process), not by a `SamplingConfig` field (where `grpo_fast.py` runs)."""
    return isinstance(top_k.value, EnvNumber) and request.lineno <= top_k.line <= (request.end_lineno or request.lineno)


def _runtime_env(call: ast.Call) -> dict[str, Written]:
    """The literal `env_vars` of the actor's `.options(runtime_env=...)`."""
    options = call.func.value if isinstance(call.func, ast.Attribute) else None
    keywords = options.keywords if isinstance(options, ast.Call) else []
    return next((env_vars(keyword.value) for keyword in keywords if keyword.arg == "runtime_env"), {})


def _switch_env(module: ast.Module, call: ast.Call) -> dict[str, Written]:
    """The variables the actor's process surely holds: the literal `env_vars` of its
    `runtime_env` (Ray sets them in the actor's process, over what the node has) that no later
    `**` entry may replace, that Ray does not expand (`${X}`) and that the module does not write
    itself (`os.environ[...] = ...`, `setdefault`, `pop`, `del`); any other variable is the
    outside world's."""
    inner = env_vars_node(call)
    found: dict[str, Written] = {}
    for key, value in zip(inner.keys, inner.values) if isinstance(inner, ast.Dict) else ():
        name, written = (literal(key), literal(value)) if key is not None else (None, None)
        if key is None:
            found.clear()  # `**more`: may give any of them
        elif isinstance(name, str) and isinstance(written, str) and "${" not in written:
            found[name] = Written(written, key.lineno, f"{name}={written}")
        elif isinstance(name, str):
            found.pop(name, None)
    written = _written_environ(module)
    return {} if "*" in written else {name: value for name, value in found.items() if name not in written}


def _written_environ(module: ast.Module) -> set[str]:
    """The variables the module's code writes or removes (`os.environ["X"] = ...`,
    `os.environ.setdefault/pop("X")`, `del os.environ["X"]`); `os.environ.update(...)` and
    `clear()`: every one (`"*"`)."""
    found = set()
    for node in ast.walk(module):
        targets = node.targets if isinstance(node, (ast.Assign, ast.Delete)) else [node.target] if isinstance(node, ast.AugAssign) else []
        found.update(literal(t.slice) for t in targets if isinstance(t, ast.Subscript) and is_environ(t.value))
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and is_environ(node.func.value):
            if node.func.attr in ("update", "clear"):
                found.add("*")
            elif node.func.attr in ("setdefault", "pop", "__setitem__") and node.args:
                found.add(literal(node.args[0]))
    return {name for name in found if isinstance(name, str)}


def _held(test: str, switches: Mapping[str, Written]) -> str | bool | None:
    """Whether a write's `if` holds by the variables the actor's `runtime_env` gives (a reason
    naming them when it does; None: not decided here)."""
    read = [written for name, written in switches.items() if name in test]
    env = {name: written.value for name, written in switches.items()}
    holds = decided(test, lambda node: env_test(node, env)) if read else None
    if holds is not True:
        return holds
    given = ", ".join(f"{w.text} (line {w.line})" for w in read)
    return f", as the actor's runtime_env {given} asks"


def _request_top_k(request: ast.Call, module: ast.Module, text: str) -> Written | None:
    """The `top_k` of the requests the actor sends (see the module docstring)."""
    sender = next(
        (node for node in ast.walk(module) if isinstance(node, (ast.AsyncFunctionDef, ast.FunctionDef)) and request in ast.walk(node)), None
    )
    extra = next((keyword.value for keyword in request.keywords if keyword.arg == "extra_body"), None)
    if isinstance(extra, ast.Dict):
        for key, value in zip(extra.keys, extra.values):
            if key is not None and literal(key) == "top_k":
                if isinstance(value, ast.Name) and sender is not None and value.id in (names := bound_once(sender)):
                    value = names[value.id]  # `top_k = params_dict.pop("top_k")` before the call
                if sender is not None and _reads_config(value, request, sender):
                    return _config_top_k(module, text) or Written(_default_of(value), value.lineno, snippet(text, value))
                number = env_number(value)  # `int(os.environ["X"])`: read where the actor runs
                return Written(number or literal(value), key.lineno, snippet(text, key) + ": " + snippet(text, value))
    elif extra is not None:  # a dict built elsewhere: may hold it
        return Written(UNKNOWN, extra.lineno, snippet(text, extra))
    written = next((keyword for keyword in request.keywords if keyword.arg == "top_k"), None)
    if written is not None:
        return Written(literal(written.value), written.lineno, snippet(text, written))
    configured = _config_top_k(module, text)
    if configured is None and sender is not None and "top_k" in (ast.get_source_segment(text, sender) or ""):
        return Written(UNKNOWN, sender.lineno, f"top_k in {sender.name}")  # added to the request some other way
    return configured


def _reads_config(value: ast.expr, request: ast.Call, sender: ast.AST) -> bool:
    """Whether `value` is the `top_k` of the request's `SamplingConfig`: a key of the dict spread
    into the request or made by `dataclasses.asdict(...)` (`params_dict.pop("top_k")`, `.get(...)`,
    `params_dict["top_k"]`), or the attribute of a config the sender takes, copies or turns into
    that dict (`sampling_params.top_k`)."""
    spread = {k.value.id for k in request.keywords if k.arg is None and isinstance(k.value, ast.Name)}
    made, configs = set(spread), set()
    for node in ast.walk(sender):
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call) and isinstance(target := node.targets[0], ast.Name):
            called = callee_name(node.value)
            (made if called == "asdict" else configs if called in ("replace", "SamplingConfig") else set()).add(target.id)
        if isinstance(node, ast.Call) and callee_name(node) == "asdict" and node.args and isinstance(node.args[0], ast.Name):
            configs.add(node.args[0].id)
        if isinstance(node, ast.arg) and "SamplingConfig" in ast.unparse(node.annotation or ast.Constant(None)):
            configs.add(node.arg)
    if isinstance(value, ast.Attribute):
        return value.attr == "top_k" and isinstance(value.value, ast.Name) and value.value.id in configs
    if isinstance(value, ast.Subscript):
        return literal(value.slice) == "top_k" and isinstance(value.value, ast.Name) and value.value.id in made
    held = value.func.value if isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) else None
    return (
        isinstance(held, ast.Name)
        and held.id in made
        and callee_name(value) in ("pop", "get")
        and bool(value.args)
        and literal(value.args[0]) == "top_k"  # type: ignore[arg-type]
    )


def _default_of(value: ast.expr) -> Any:
    """The default `.pop("top_k", D)` / `.get("top_k", D)` gives when the config has no `top_k`
    (UNKNOWN otherwise: a read that fails, or a value not read here)."""
    if isinstance(value, ast.Call) and callee_name(value) in ("pop", "get"):
        return literal(value.args[1]) if len(value.args) > 1 else None if callee_name(value) == "get" else UNKNOWN
    return UNKNOWN


def _is_client_call(node: ast.AST) -> bool:
    """`....completions.create(...)` (`client.completions`, `client.chat.completions`)."""
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in _CLIENT_CALLS
        and isinstance(node.func.value, ast.Attribute)
        and node.func.value.attr == "completions"
    )


def _config_top_k(module: ast.Module, text: str) -> Written | None:
    """A `top_k` field of `SamplingConfig`: its literal default when no call of the module sets
    it (a call that does gives a value from the run's configuration: unknown)."""
    config = next((node for node in ast.walk(module) if isinstance(node, ast.ClassDef) and node.name == "SamplingConfig"), None)
    field = next(
        (
            statement
            for statement in (config.body if config is not None else ())
            if isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name) and statement.target.id == "top_k"
        ),
        None,
    )
    if field is None:
        return None
    set_by_call = any(
        isinstance(node, ast.Call) and callee_name(node) == "SamplingConfig" and any(k.arg in ("top_k", None) for k in node.keywords)
        for node in ast.walk(module)
    )
    if field.value is None or set_by_call:
        return Written(UNKNOWN, field.lineno, snippet(text, field))
    return Written(env_number(field.value) or literal(field.value), field.lineno, snippet(text, field))


def settings(fork: EngineFork, anchor: Span) -> dict[str, Setting]:
    found = {
        name: Setting(
            name,
            written.value,
            fork.span(written.line, anchor),
            written.text if name == MASK else fork.said(written),
            implied=True,
            via=(anchor,),
            keys=nested_settings(fork.path, fork.text, written.nested, anchor, OWNER),
        )
        for name, written in fork.engine.items()
    }  # the mask as written: every message names its line (`resting_on`)
    for name in fork.unknown:
        found[name] = Setting(name, UNKNOWN, anchor, f"{name} (written under a condition in {fork.path})", implied=True)
    return found


def environment(fork: EngineFork, env: dict[str, Setting], anchor: Span) -> dict[str, Setting]:
    merged = dict(env)
    for name, (written, only_unset) in fork.environment.items():
        if not (only_unset and name in merged):
            merged[name] = Setting(name, written.value, fork.span(written.line, anchor), fork.said(written), implied=True, via=(anchor,))
    return merged


def requests(
    fork: EngineFork, engine: Mapping[str, Setting], anchor: Span, temperature: Any, env: Mapping[str, Setting]
) -> tuple[Request, ...]:
    """The rollout request, with `temperature` as the command line gives it (None: not given) and
    `env`, the variables the launch sets where `grpo_fast.py` runs (its `SamplingConfig` is made there)."""
    if not fork.sends:
        return ()
    sent: dict[str, Setting] = {}
    if fork.top_k is not None:
        sent["top_k"] = _sent_top_k(fork, fork.top_k, anchor, env)
    if temperature is not None:
        sent["temperature"] = Setting("temperature", temperature, anchor, f"--temperature {temperature}")
    mode = engine.get("generation_config")
    # the model's generation_config.json (vLLM's `auto`) or the server's overrides may set top_k
    model_defaults = mode is None or mode.value != "vllm" or "override_generation_config" in engine
    return (Request("sampling", fork.span(fork.request_line, anchor), sent, open_ended=model_defaults),)


def _sent_top_k(fork: EngineFork, written: Written, anchor: Span, env: Mapping[str, Setting]) -> Setting:
    """The fork's own `top_k` (open-instruct sends none): a finding sits at its line, or, for a
    field that reads an environment variable, at the launch's setting of it (a variable the
    launch does not set is not known)."""
    fork_line = fork.span(written.line, anchor)
    if not isinstance(written.value, EnvNumber):
        return Setting("top_k", written.value, fork_line, fork.said(written), implied=True, via=(anchor,))
    given = env.get(written.value.variable)
    value = written.value.given(given.value) if given is not None else UNKNOWN
    if given is None or value is UNKNOWN:
        return Setting("top_k", UNKNOWN, fork_line, fork.said(written), implied=True, via=(anchor,))
    return Setting("top_k", value, given.span, f"{given.spelling} (read by {fork.said(written)})", implied=True, via=(fork_line, anchor))


def resting_on(fork: EngineFork) -> tuple[Assumption, ...]:
    written = fork.engine.get(MASK)
    if written is None:
        return ()
    return (Assumption(f"{OWNER}'s {fork.path}:{written.line} sets {written.text}", whole=True),)

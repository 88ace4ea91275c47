"""An OpenRLHF fork in the checked tree (`frameworks/openrlhf.py`): the engine dict its own
`create_vllm_engines` builds, read in place of the edition's for the command lines of that tree.

`openrlhf/trainer/ray/vllm_engine.py` (0.9.x to 0.11.2) builds `actor_kwargs = {"model": pretrain,
"enforce_eager": enforce_eager, ..., "dtype": "bfloat16", "trust_remote_code": True, ...}`, then
`if logprobs_mode: actor_kwargs["logprobs_mode"] = logprobs_mode; actor_kwargs["max_logprobs"] = 1`
(the importance-sampling correction the command line turns on), and hands it to the Ray actor,
whose `vllm.AsyncEngineArgs(*args, **self.kwargs)` gets all but the actor's own keys (and a
keyword the fork writes in that call, or into the actor's `**kwargs` before it; its
`kwargs.setdefault("k", v)` where the dict lacks the key, or where the key's `if` does not hold,
when `.remote(**actor_kwargs)` hands the actor nothing else). Its `os.environ`
writes of `VLLM_*` variables are the engine's environment (those under a test of what the actor is
passed: `openrlhf_switches`). Read with `built_dicts`: a key the fork writes with a
literal reaches vLLM (over the flags' values when written after the correction's `if` or in the
actor's call, under them when that `if` writes it over the fork's); a key
the command line gives whose entry the fork removed no longer reaches vLLM. A replay key the fork
writes under an `if` of its own, or with a value not read here, keeps the launch open, but for a
test of an environment variable the launch sets where `create_vllm_engines` runs (the driver: a
`ray job submit` runtime env's `env_vars`, the script's exports), which decides it, and the actor's
own test of one before `AsyncEngineArgs(...)`, which a Ray job's runtime env decides (its actors
start with it; a shell's exports reach the driver only). A key
whose value is a parameter of `create_vllm_engines` with a literal default that OpenRLHF's caller
does not pass (not in the upstream signature, not named by the tree's train_ppo_ray.py) gets that
default, at its line. An actor class it starts from a registry by a parameter
(`VLLM_ENGINE_CLASSES[engine_class].options(...).remote(...)`, `actor_registries`) adds what its
`__init__` writes into `**kwargs` under `engine_class == 'key'`, decided as the other switches are
(the fork's option the caller passes it, else the parameter's default). (The file itself is also
checked as Python: its engine dict is then read by the value flow, on its own.)
"""

from __future__ import annotations

import ast
import json
import re
from dataclasses import field, replace
from typing import Any, Callable, Iterator, Mapping

from ..model import UNKNOWN, Assumption, Setting, Span
from ..records import record
from ..vllm.command_line import Token
from .actor_registries import chosen_writes
from .built_dicts import BuiltDict, Written, read, written as literal_entry
from .declared_values import call_keywords
from .fork_conditions import decided, env_test, env_variable, evaluated, guarded, tested
from .fork_source import (
    callee_name,
    default_writes,
    dict_pairs,
    environment_settings,
    key_writes,
    literal,
    parse,
    renamed as spelled,
    snippet,
)
from .nearby import found_upward
from .openrlhf_rebinds import rebound_correction
from .openrlhf_remote import with_remote_keywords

ENGINES = "openrlhf/trainer/ray/vllm_engine.py"
CLI = "openrlhf/cli/train_ppo_ray.py"  # what goes into `generate_kwargs`
OWNER = "the forked OpenRLHF"
_ENGINE_CALLS = ("AsyncEngineArgs", "LLM")
_ACTOR_KWARGS = "actor_kwargs"  # the dict `create_vllm_engines` starts each actor with
_CORRECTION = "logprobs_mode"  # `if logprobs_mode:`, OpenRLHF's own: the command line decides it
# The parameters of `create_vllm_engines` at 3c3be62, which OpenRLHF's train_ppo_ray.py passes.
_CALLER_PASSES = frozenset(
    (
        *("num_engines", "tensor_parallel_size", "pretrain", "seed", "full_determinism", "enable_prefix_caching"),
        *("enforce_eager", "max_model_len", "shared_pg", "gpu_memory_utilization", "vllm_enable_sleep", "logprobs_mode"),
        *("agent_func_path", "remote_rm_url", "max_images_per_prompt"),
    )
)
_REPLAY_KEYS = frozenset(("return_sampling_mask", "logprobs_mode", "logits_processors", "speculative_config"))
_ACTOR_TEST = "a condition of the actor's"  # a `setdefault` under an `if` of the actor's: not decided here


def fork(launching: str, read_text: Callable[[str], str | None] | None) -> BuiltDict | None:
    """The engine dict of OpenRLHF's own `create_vllm_engines` in the tree, with the keywords its
    Ray actor adds to `vllm.AsyncEngineArgs(*args, **self.kwargs)` (`vllm.LLM` before 0.9)
    written after it (None: not there, or not read: the edition's)."""
    found = found_upward(ENGINES, launching, read_text) if read_text is not None else None
    cli = found_upward(CLI, launching, read_text) if found is not None else None  # type: ignore[arg-type]
    given = _helper_dicts(*cli) if cli is not None else {}
    built = read(found[1], found[0], "create_vllm_engines", _ACTOR_KWARGS, given=given) if found is not None else None
    if built is None or found is None:
        return built
    built = with_remote_keywords(rebound_correction(built, "create_vllm_engines", _CORRECTION), "create_vllm_engines", _ACTOR_KWARGS)
    actor = call_keywords(found[1], found[0], _ENGINE_CALLS)
    own = {**_actor_writes(found[1]), **(actor.entries if actor is not None else {})}
    # No caller in the tree: what it passes is unknown, so no default is taken as the engine's.
    defaults = _unpassed_defaults(found[1], cli[1]) if cli is not None else {}
    entries = {key: _defaulted(written, defaults) for key, written in built.entries.items()}
    chosen, not_read = _chosen_actor(found[1], defaults)
    entries.update({key: _under(w, entries[key]) if key in entries else w for key, w in chosen.items()})
    built = replace(built, unread=built.unread + not_read)
    for key, written in _actor_writes(found[1], setdefault=True).items() if _handed_whole(found[1], _ACTOR_KWARGS) else ():
        if key not in own:
            entries[key] = _under(entries[key], written) if key in entries else written
    return replace(built, entries={**entries, **own})


def _chosen_actor(text: str, defaults: Mapping[str, Written]) -> tuple[dict[str, Written], tuple[Written, ...]]:
    """What the actor class `create_vllm_engines` starts from a registry by a parameter writes into
    its `**kwargs` (`actor_registries`), under that parameter's test (a parameter no caller passes:
    decided by its default); the writes not read here."""
    module = parse(text)
    engines = [k.name for k in ast.walk(module) if isinstance(k, ast.ClassDef) and any(map(_is_engine_call, ast.walk(k)))] if module else []
    if module is None or len(engines) != 1:
        return {}, ()
    found, unread = chosen_writes(module, text, "create_vllm_engines", engines[0])
    held = {}
    for key, written in found.items():
        holds = decided(
            written.condition, lambda node: evaluated(node, lambda n: getattr(defaults.get(ast.unparse(n)), "value", UNKNOWN), {})
        )
        if holds is not False:
            held[key] = replace(written, condition="") if holds else written
    return held, unread


def _under(entry: Written, default: Written) -> Written:
    """A key of the dict with the actor's `setdefault` under it: in force where the key's `if`
    does not hold and nothing else was written there."""
    return replace(entry, otherwise=default) if entry.condition and entry.otherwise is None else entry


def _handed_whole(text: str, name: str) -> bool:
    """Whether each `.remote(...)` that starts the actor with the dict `name` hands it that dict
    alone (`.remote(**actor_kwargs)`): a keyword beside it reaches the actor's `**kwargs` too, and
    may hold a key the actor sets by default."""
    module = parse(text)
    remotes = [node for node in ast.walk(module) if isinstance(node, ast.Call) and callee_name(node) == "remote"] if module else []
    spreads = [[ast.unparse(keyword.value) if keyword.arg is None else "" for keyword in node.keywords] for node in remotes]
    starting = [node for node, spread in zip(remotes, spreads) if name in spread]
    return bool(starting) and all(not node.args and len(node.keywords) == 1 for node in starting)


def _helpers(module: ast.Module) -> Iterator[tuple[str, ast.FunctionDef, list[str]]]:
    """The keywords of the `create_vllm_engines(...)` call that a function of the module gives
    (`extra_engine_kwargs=vllm_extra_engine_kwargs(args)`): (keyword, the function, the names the
    call passes it, one per parameter)."""
    functions = {node.name: node for node in module.body if isinstance(node, ast.FunctionDef)}
    for node in ast.walk(module):
        if isinstance(node, ast.Call) and callee_name(node) == "create_vllm_engines":
            for keyword in node.keywords:
                call = keyword.value
                if keyword.arg and isinstance(call, ast.Call) and getattr(call.func, "id", "") in functions and not call.keywords:
                    helper = functions[call.func.id]  # type: ignore[attr-defined]
                    if len(call.args) == len(helper.args.args) and all(isinstance(argument, ast.Name) for argument in call.args):
                        yield keyword.arg, helper, [argument.id for argument in call.args]  # type: ignore[attr-defined]


def _helper_dicts(path: str, text: str) -> dict[str, list[Written]]:
    """The dicts that functions of the tree's train_ppo_ray.py build for `create_vllm_engines`'s
    keywords (`extra = {...}`, writes under `if args.vllm.X:`, `return extra`; or `return {...}`),
    by keyword, each key at its line there, its tests and values spelled in the caller's names."""
    module = parse(text)
    found: dict[str, list[Written]] = {}
    for keyword, helper, passed in _helpers(module) if module is not None else ():
        returns = [node.value for node in ast.walk(helper) if isinstance(node, ast.Return)]
        if len(returns) != 1 or returns[0] is None:
            continue
        renamed = dict(zip((argument.arg for argument in helper.args.args), passed))
        if isinstance(returns[0], ast.Name):
            built = read(text, path, helper.name, returns[0].id)
            entries = list(built.entries.values()) if built is not None and not built.unread and not built.removed else None
        else:
            pairs = dict_pairs(returns[0])
            entries = [literal_entry(key, value, True) for key, value in pairs] if pairs is not None else None
        if entries is not None:
            found[keyword] = [_in_caller(entry, renamed, path, text) for entry in entries]
    return found


def _in_caller(entry: Written, renamed: Mapping[str, str], path: str, text: str) -> Written:
    """A helper's write spelled in the names its caller passes (`cfg.vllm.X` -> `args.vllm.X`)."""
    otherwise = _in_caller(entry.otherwise, renamed, path, text) if entry.otherwise is not None else None
    condition = spelled(entry.condition, renamed) if entry.condition and not entry.condition.endswith(" runs it") else entry.condition
    return replace(entry, text=spelled(entry.text, renamed), condition=condition, otherwise=otherwise, path=path, source=text)


def _defaulted(written: Written, defaults: Mapping[str, Written]) -> Written:
    """The key as the dict gets it when its value is a parameter left at its default (its own
    key and `if` kept; the conditional value's fallback likewise)."""
    otherwise = _defaulted(written.otherwise, defaults) if written.otherwise is not None else None
    default = defaults.get(written.text) if written.value is UNKNOWN else None
    found = (
        written
        if default is None
        else replace(
            written,
            value=default.value,
            line=default.line,
            text=default.text,
            note=f"the default of `{written.text}`, which no caller passes",
        )
    )
    return replace(found, otherwise=otherwise) if otherwise is not written.otherwise else found


def _unpassed_defaults(text: str, cli: str) -> dict[str, Written]:
    """The literal defaults of `create_vllm_engines`' parameters that OpenRLHF's caller does not
    pass (one its upstream signature lacks, `return_sampling_mask: bool = True`, and that the
    tree's train_ppo_ray.py does not name): the value the fork's dict gets, at the default's line."""
    module = parse(text)
    function = (
        next((node for node in ast.walk(module) if isinstance(node, ast.FunctionDef) and node.name == "create_vllm_engines"), None)
        if module is not None
        else None
    )
    if function is None:
        return {}
    arguments = function.args
    positional = [*arguments.posonlyargs, *arguments.args]
    pairs = [
        *zip(positional[len(positional) - len(arguments.defaults) :], arguments.defaults),
        *zip(arguments.kwonlyargs, arguments.kw_defaults),
    ]
    rebound = {node.id for node in ast.walk(function) if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store)}
    found = {}
    for argument, default in pairs:
        name = argument.arg
        if (
            default is None
            or name in _CALLER_PASSES
            or name in rebound
            or re.search(rf"\b{name}\b", cli)
            or (value := literal(default)) is UNKNOWN
        ):
            continue
        found[name] = Written(name, value, snippet(text, argument) + " = " + snippet(text, default), default.lineno, True)
    return found


@record(unsafe_hash=True)
class ForkOptions:
    """The options the fork's train_ppo_ray.py parser adds (option -> argparse's nargs: 0 for a
    `store_true`/`store_false` switch) and the `create_vllm_engines` keywords it passes from the
    parsed options (parameter -> (option, its default, the value a switch stores when given))."""

    options: Mapping[str, Any] = field(default_factory=dict)
    passed: Mapping[str, tuple[str, Any, Any]] = field(default_factory=dict)
    declared: Mapping[str, tuple[Any, int]] = field(default_factory=dict)  # option -> (its default, its line)
    types: Mapping[str, str] = field(default_factory=dict)  # option -> its `type=` as written (`json.loads`)


_SWITCHES = {"store_true": True, "store_false": False}  # action -> the value it stores (its default: the other)
_CONVERTS: Mapping[str, Callable[[str], Any]] = {"str": str, "int": int, "float": float, "json.loads": json.loads, "loads": json.loads}


def fork_options(launching: str, read_text: Callable[[str], str | None] | None, known: Mapping[str, Any]) -> ForkOptions:
    """What the tree's train_ppo_ray.py declares beyond OpenRLHF's own parser (`known`): a switch
    a fork adds (`parser.add_argument("--vllm.return_sampling_mask", action="store_true")`) and
    hands to `create_vllm_engines(..., return_sampling_mask=args.vllm.return_sampling_mask)`, each
    option's default and line (`openrlhf_requests` reads those passed with the generate kwargs),
    and its `type=` (`json.loads`: `switched_by` gives the parsed value)."""
    cli = found_upward(CLI, launching, read_text) if read_text is not None else None
    module = parse(cli[1]) if cli is not None else None
    if module is None:
        return ForkOptions()
    options: dict[str, Any] = {}
    defaults: dict[str, tuple[Any, Any]] = {}  # option -> (default, the value a switch stores)
    lines: dict[str, int] = {}
    types: dict[str, str] = {}
    for node in ast.walk(module):
        if not (isinstance(node, ast.Call) and callee_name(node) == "add_argument" and node.args):
            continue
        option = literal(node.args[0])
        if not isinstance(option, str) or not option.startswith("--") or option in known:
            continue
        given = {keyword.arg: literal(keyword.value) for keyword in node.keywords if keyword.arg}
        action = given.get("action")
        options[option] = 0 if action in _SWITCHES else given.get("nargs", 1)
        stored = _SWITCHES.get(action)  # type: ignore[arg-type]
        defaults[option] = (given.get("default", None if stored is None else not stored), stored)
        lines[option] = node.lineno
        types.update({option: ast.unparse(k.value) for k in node.keywords if k.arg == "type"})
    passed = {}
    for node in ast.walk(module):
        if isinstance(node, ast.Call) and callee_name(node) == "create_vllm_engines":
            for keyword in node.keywords:
                option = "--" + ast.unparse(keyword.value).removeprefix("args.")
                if keyword.arg and ast.unparse(keyword.value).startswith("args.") and option in options:
                    passed[keyword.arg] = (option, *defaults[option])
    for name in {name for _, _, names in _helpers(module) for name in names}:  # what a helper reads of the parsed options
        passed.update({f"{name}.{option[2:].replace('-', '_')}": (option, *defaults[option]) for option in options})
    return ForkOptions(options, passed, {option: (defaults[option][0], lines[option]) for option in options}, types)


def switched_by(forked: ForkOptions, parsed: Mapping[str, tuple[Token, list[Token]]]) -> dict[str, tuple[Any, Setting | None]]:
    """The parameters of `create_vllm_engines` the fork's own options give: each one's value and
    the flag that gives it (None: the option's default, the words do not give it)."""
    found: dict[str, tuple[Any, Setting | None]] = {}
    for parameter, (option, default, stored) in forked.passed.items():
        if option not in parsed:
            found[parameter] = (default, None)
            continue
        flag, values = parsed[option]
        kind = forked.types.get(option, "str")
        value: Any = stored if stored is not None else _converted(values[-1], kind) if values else UNKNOWN
        if forked.options.get(option) in ("*", "+"):  # a list of the words
            value = [_converted(token, kind) for token in values]
            value = UNKNOWN if UNKNOWN in value else value
        found[parameter] = (value, Setting(parameter, value, flag.span, " ".join(token.raw for token in (flag, *values))))
    return found


def _converted(token: Token, kind: str) -> Any:
    """What argparse stores for a word given to an option of `type=kind` (`json.loads`: the
    JSON's value); UNKNOWN: a word not known here, or a `type` not read here."""
    convert = _CONVERTS.get(kind)
    if not token.known or convert is None:
        return UNKNOWN
    try:
        return convert(token.text)
    except ValueError:  # argparse's "invalid loads value"; not judged here
        return UNKNOWN


def environment(built: BuiltDict, env: Mapping[str, Setting]) -> dict[str, Setting]:
    """`env` with the `VLLM_*` variables the fork's engine module writes (its Ray actor's
    `_configure_vllm_env`, in the engine's process)."""
    return environment_settings(built.path, built.text, env, OWNER)


def _actor_writes(text: str, setdefault: bool = False) -> dict[str, Written]:
    """The keys the actor writes into its `**kwargs` before `vllm.AsyncEngineArgs(*args,
    **self.kwargs)` (`kwargs["k"] = v`, `kwargs.update(k=v)`; `setdefault`: `kwargs.setdefault("k",
    v)`, the first one of a key), each with the `if` it sits under."""
    module = parse(text)
    found: dict[str, Written] = {}
    for function in ast.walk(module) if module is not None else ():
        if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)) or function.args.kwarg is None:
            continue
        if not any(_is_engine_call(node) for node in ast.walk(function)):
            continue
        spread = function.args.kwarg.arg
        for statement, test in guarded(function.body):
            for name, key, value in (default_writes if setdefault else key_writes)(statement):
                if name == spread and not (setdefault and key in found):
                    condition = _ACTOR_TEST if setdefault and test else test
                    found[key] = Written(key, literal(value), snippet(text, value), statement.lineno, True, condition)
    return found


def _actor_holds(condition: str, env: Mapping[str, Setting]) -> bool | None:
    """Whether the actor's `if` over environment variables holds in `env`, the variables its Ray
    actor starts with (None: a test of anything else, or of a variable `env` does not hold)."""
    variables = [env_variable(node) for node in tested(condition)]
    named = [name for name in variables if name is not None]
    if not named or any(name not in env for name in named):
        return None
    values = {name: env[name].value for name in named}
    return decided(condition, lambda node: env_test(node, values))


def _is_engine_call(node: ast.AST) -> bool:
    if not isinstance(node, ast.Call):
        return False
    return callee_name(node) in _ENGINE_CALLS and any(keyword.arg is None for keyword in node.keywords)


def forked_settings(
    built: BuiltDict,
    flags: Mapping[str, Setting],
    anchor: Span,
    actor_keys: frozenset[str],
    given_switches: Mapping[str, tuple[Any, Setting | None]] | None = None,
    driver_env: Mapping[str, Setting] | None = None,
    actors: Mapping[str, Setting] | None = None,
    correction: bool | None = None,
) -> tuple[dict[str, Setting], list[str], tuple[Assumption, ...]]:
    """The engine settings of a command line (`flags`: what its words give; `given_switches`: the
    parameters the fork's own options give, `switched_by`; `driver_env`: the variables the launch sets
    where `create_vllm_engines` runs, which decide its `if os.environ.get("X", "0") == "1":`;
    `actors`: those its Ray actors start with, a Ray job's runtime env, which decide the same test
    in the actor's `__init__`; `correction`: whether `if logprobs_mode:` holds, `openrlhf_rebinds.correction_holds`)
    in the fork, the reasons the launch is open, and the fork's lines that a flag or a variable
    turns on (what its findings rest on)."""
    under: dict[str, Setting] = {}
    over: dict[str, Setting] = {}
    reasons: list[str] = []
    assumed: list[Assumption] = []
    in_actor = {written.line for written in _actor_writes(built.text).values()}
    for key, written in built.entries.items():
        if key in actor_keys:
            continue
        if written.line in in_actor and not written.path:  # the actor's test: its own environment decides
            switched, env = {}, actors
            holds = _actor_holds(written.condition, actors or {}) if written.condition else None
        else:
            switched, env = given_switches, driver_env
            holds = _switch_holds(written.condition, switched or {}, env or {}) if written.condition != _CORRECTION else None
            if written.condition == _CORRECTION and key not in ("logprobs_mode", "max_logprobs"):
                holds = correction  # the caller's word, decided by its switch on this command line
        if holds is False:
            continue  # the fork's switch is off on this command line
        given = (switched or {}).get(written.text) if written.value is UNKNOWN else None  # `= return_sampling_mask`
        if given is not None and (holds is True or not written.condition):
            written, holds = replace(written, value=given[0]), True
        if holds is True and written.value is not UNKNOWN:
            conditioned = (switched[name][1] for name in _names(written.condition) if name in (switched or {}))  # type: ignore[index]
            exported = ((env or {}).get(name or "") for name in map(env_variable, tested(written.condition)))
            flag = given[1] if given is not None else next(filter(None, (*conditioned, *exported)), None)
            fork_line = built.setting(written, anchor, OWNER)  # the option's default turns it on: the fork decides
            over[key] = (
                fork_line if flag is None else Setting(key, written.value, flag.span, flag.spelling, implied=True, via=(fork_line.span,))
            )
            assumed.append(Assumption(f"{OWNER}'s {built.where(written)} sets {key}={written.value!r}", whole=True))
            continue
        if written.condition and not (written.condition == _CORRECTION and key in ("logprobs_mode", "max_logprobs")):
            if key in _REPLAY_KEYS:
                reasons.append(f"{key} written by {OWNER} when {written.condition} ({built.where(written)})")
            continue
        final = written.otherwise if written.condition else written
        if final is not None and final.value is not UNKNOWN:
            (under if written.condition else over)[key] = built.setting(final, anchor, OWNER)
        elif final is not None and key in _REPLAY_KEYS and (final.path or not final.text.isidentifier()):  # a parameter, else open
            reasons.append(f"{key} written by {OWNER} with a value not read here ({built.where(final)})")
    kept = {name: setting for name, setting in flags.items() if name in built.entries}  # an entry it removed no longer passes
    reasons += [f"{w.text} (written into OpenRLHF's engine arguments at {built.where(w.line)}, not read here)" for w in built.unread]
    return {**under, **kept, **over}, reasons, tuple(assumed)


def _switch_holds(condition: str, switched: Mapping[str, tuple[Any, Setting | None]], env: Mapping[str, Setting]) -> bool | None:
    """Whether an `if` over parameters that the fork's own options give, or over variables the
    launch sets, holds (None: not decided here, or no such parameter or variable in it; one given
    at no place holds at its default; a variable it does not set is not known)."""
    variables = {name for name in map(env_variable, tested(condition)) if name in env}
    if not condition or not (variables or any(name in switched for name in _names(condition))):
        return None
    values = {name: env[name].value for name in variables}

    def value_of(node: ast.expr) -> Any:
        text = ast.unparse(node)
        return switched[text][0] if text in switched else env_test(node, values)

    return decided(condition, lambda node: evaluated(node, value_of, {}))  # `engine_class == "vllm_replay"` too


def _names(condition: str) -> list[str]:
    """The names and attributes the test reads (`args.vllm.X`, `args.vllm`, `args`)."""
    try:
        return [ast.unparse(node) for node in ast.walk(ast.parse(condition, mode="eval")) if isinstance(node, (ast.Name, ast.Attribute))]
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return []

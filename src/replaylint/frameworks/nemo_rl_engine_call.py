"""What a NeMo-RL fork's worker writes into the engine dict in the method it hands the dict to,
before the engine is made: NeMo-RL's `_load_model` ends with `self._create_engine(llm_kwargs)`
(main @ 7ea279a vllm_worker.py:609), and `VllmGenerationWorkerImpl._create_engine(self,
llm_kwargs)` runs `self.llm = vllm.LLM(**llm_kwargs)` (:814-817). A fork that turns replay on
there (`if self.cfg["vllm_cfg"].get("sampling_replay", False): llm_kwargs["return_sampling_mask"]
= True`) writes after everything `_load_model` wrote.

Read with CPython's parser: the writes (`d["k"] = v`, `d.update(k=v)`) to the method's parameter
that receives the dict, up to the engine call, each with the `if` it sits under. A test of
`vllm_cfg` keys is decided by the recipe's values (or the code's `.get` default where the recipe
gives none); where the recipe's key decides, the setting sits on that key's line (the switch that
turns it on), else on the fork's line. A test of an environment variable (`if os.environ.get(
"NRL_SAMPLING_REPLAY", "0") == "1":`) is decided by what the launch exports, the setting on the
export's line; a variable it does not export (or exports from outside) is not known. A replay key written under a test not decided here, with a
value not read, or in a method the module defines more than once keeps the launch open; so does
one written in the worker's module when the recipe's `vllm_cfg.async_engine` is true or not read
(NeMo-RL then starts `VllmAsyncGenerationWorker` of vllm_worker_async.py, whose own
`_create_engine` makes the engine). The writes `_load_model` itself makes to the dict under an `if`
after building it (`tested_writes`) are decided the same way, for either worker.
"""

from __future__ import annotations

import ast
from typing import Any, Callable, Iterator, Mapping

from ..model import UNKNOWN, Setting, Span
from ..records import record
from .fork_conditions import bound_once, config_read, decided, env_test, exported, exports_read, guarded
from .fork_source import Written, callee_name, key_writes, literal, placed, snippet

_ENGINE_CALLS = frozenset(("LLM", "AsyncEngineArgs", "EngineArgs", "from_engine_args"))
_VLLM_CFG = "self.cfg['vllm_cfg']"
_REDEFINED = "a method the module defines more than once runs it"  # no test of the recipe decides it


@record(unsafe_hash=True)
class CalleeWrite:
    """A write to the engine dict in the method it is handed to: its key, value and line, and the
    `if` it sits under ("": always)."""

    key: str
    written: Written
    condition: str
    owners: tuple[str, ...]  # how the method spells the recipe's `vllm_cfg` (`self.cfg["vllm_cfg"]`, a name bound to it)


def callee_writes(module: ast.Module, function: ast.AST, name: str, text: str) -> tuple[CalleeWrite, ...]:
    """The writes of the methods that `function` hands the dict `name` to (`self.METHOD(name)`)."""
    found: list[CalleeWrite] = []
    for method, position in _handed_to(function, name):
        defined = [node for node in ast.walk(module) if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == method]
        for callee in defined:
            parameters = [*callee.args.posonlyargs, *callee.args.args][1:]  # after `self`
            if position < len(parameters):
                writes = _writes(callee, parameters[position].arg, text)
                found += [CalleeWrite(w.key, w.written, _REDEFINED, w.owners) for w in writes] if len(defined) > 1 else writes
    return tuple(found)


def tested_writes(function: ast.FunctionDef | ast.AsyncFunctionDef, name: str, after: int, text: str) -> tuple[CalleeWrite, ...]:
    """The writes to the engine dict `name` after its `dict(...)` call (line `after`) under an `if`
    in the function that builds it (`if self.cfg["vllm_cfg"].get("return_sampling_mask", False):
    llm_kwargs["return_sampling_mask"] = True` in `_load_model`), decided as the callee's are;
    main's write of the mode it read (`llm_kwargs["logprobs_mode"] = logprobs_mode`) is not one."""
    writes = _writes(function, name, text)
    mode_read = lambda w: w.key == "logprobs_mode" and w.written.value is UNKNOWN  # noqa: E731
    return tuple(w for w in writes if w.condition and w.written.line > after and not mode_read(w))


def _handed_to(function: ast.AST, name: str) -> Iterator[tuple[str, int]]:
    """(method, position) of each `self.METHOD(..., name, ...)` call in the function."""
    for call in ast.walk(function):
        if isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and getattr(call.func.value, "id", "") == "self":
            for position, argument in enumerate(call.args):
                if isinstance(argument, ast.Name) and argument.id == name and call.func.attr not in _ENGINE_CALLS:
                    yield call.func.attr, position


def _writes(callee: ast.FunctionDef | ast.AsyncFunctionDef, parameter: str, text: str) -> list[CalleeWrite]:
    names = bound_once(callee)
    owners = (_VLLM_CFG, *(bound for bound, node in names.items() if ast.unparse(node) == _VLLM_CFG))
    found = []
    for statement, condition in guarded(callee.body):
        if _makes_engine(statement, parameter):
            break
        for target, key, value in key_writes(statement):
            if target == parameter:
                found.append(CalleeWrite(key, Written(literal(value), statement.lineno, snippet(text, statement)), condition, owners))
    return found


def _makes_engine(statement: ast.stmt, parameter: str) -> bool:
    """Whether the statement makes the engine from the dict (`vllm.LLM(**llm_kwargs)`)."""
    for node in ast.walk(statement):
        if isinstance(node, ast.Call) and callee_name(node) in _ENGINE_CALLS:
            if any(keyword.arg is None and getattr(keyword.value, "id", "") == parameter for keyword in node.keywords):
                return True
    return False


def applied(
    write: CalleeWrite,
    configured: Callable[[str], Setting | None],
    path: str,
    text: str,
    owner: str,
    anchor: Span,
    env: Mapping[str, Setting] | None = None,
) -> Setting | None | bool:
    """The setting the write gives where the recipe's values decide its test (a `Setting`), or
    what the launch exports (`env`) a test of an environment variable (`os.environ.get("X", "0")
    == "1"`; a variable it does not export is not known), False where the test does not hold,
    None where it is not decided here."""
    switches: list[Setting] = []
    values = exported(env or {})

    def value_of(node: ast.expr) -> Any:
        read = config_read(node, *write.owners)
        if read is None:
            value = env_test(node, values)
            switches.extend(exports_read(node, env or {}) if value is not UNKNOWN else ())
            return value
        given = configured(read[0])
        if given is None:
            return read[1]  # the code's default (`.get(key, False)`; a subscript: UNKNOWN, a KeyError)
        switches.append(given)
        return UNKNOWN if isinstance(given.value, str) and "${" in given.value else given.value  # an interpolation: not resolved here

    holds = decided(write.condition, value_of)
    if holds is not True or write.written.value is UNKNOWN:
        return holds if holds is False else None
    fork_line = placed(path, text, write.written.line, anchor)
    said = f"{owner}'s {path}:{write.written.line} sets {write.written.text}"
    switch = switches[-1] if switches else None
    if switch is None:
        return Setting(write.key, write.written.value, fork_line, f"{write.written.text} ({said})", implied=True, via=(anchor,))
    return Setting(write.key, write.written.value, switch.span, f"{switch.spelling} ({said})", implied=True, via=(fork_line,))
